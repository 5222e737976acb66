package launch

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/term"

	"corral/config"
	"corral/runs"
	"corral/runs/cli/foreground/hostterm"
	"corral/ui"
	"corral/ui/frame"
)

// Drive, when given to Local, is started with the program and the supervisor (the
// demo's autoplay).
type Drive func(*tea.Program, *runs.Supervisor)

// Local runs the terminal UI over a supervisor in this process, with rs started;
// quitting ends every run. warn is told the registry's warnings on opening.
func Local(d config.Defaults, stateDir string, rs Runs, drive Drive, warn func(string)) error {
	if !isTerminal() {
		return usage(fmt.Errorf("%w (use corral run for headless runs)", ErrNoTerminal))
	}
	// Signals are Corral's own from before the first run starts until the last one is
	// verified gone: the first ends the UI (then every run, with supervisor-shutdown),
	// a later one cuts the grace short. None may kill Corral mid-cleanup.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	opts := append([]runs.Option{runs.WithScreens()}, runs.FollowAgents(rs.Notify, warn, rs.Agents...)...)
	sup, reg, err := runs.Open(d, stateDir, warn, opts...)
	if err != nil {
		return err
	}
	defer reg.Close()
	kept, keptPath := prefs(reg.Dir())
	w, h, _ := term.GetSize(int(os.Stdout.Fd()))
	for _, s := range rs.Start {
		sup.Spawn(ui.SizedForTerminal(s, w, h, kept)) // a spawn error is a run ended with spawn-error, shown in the UI
	}
	snap, sub := sup.Subscribe()
	defer sub.Close()
	m, err := ui.New(ui.Options{Engine: ui.Local{Supervisor: sup}, Initial: snap, Keys: rs.Keys, Pending: rs.Pending, Notify: rs.Notify.Terminal,
		Configured: rs.Configured, Mouse: rs.Mouse, InTmux: os.Getenv("TMUX") != "", Replay: rs.Replay, Prefs: kept, PrefsPath: keptPath,
		Empty: "No runs. Press n to start one, or start corral with -- CMD, or add [[run]]s to corral.toml."})
	if err != nil {
		sup.Shutdown(context.Background())
		return usage(err)
	}
	p := frame.NewProgram(m, tea.WithoutSignalHandler())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go ui.Bridge(ctx, sub.C, p.Send, 16*time.Millisecond)
	sup.ReconcileInBackground(func(ds []runs.Decision, _ error) { p.Send(ui.ReconciledMsg{Decisions: ds}) })
	go hostterm.WatchSignals(ctx.Done(), sigs, func(os.Signal) { p.Quit() }, sup.Hurry)
	if drive != nil {
		go drive(p.Program, sup)
	}
	_, runErr := p.Run()
	// Whatever ended the UI, nothing Corral started may outlive it.
	sctx, scancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer scancel()
	if err := sup.Shutdown(sctx); err != nil {
		return err
	}
	return runErr
}

// isTerminal reports whether stdin and stdout are both a terminal.
func isTerminal() bool {
	return term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stdout.Fd()))
}
