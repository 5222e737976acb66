package launch

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/term"

	"corral/runs"
	"corral/runs/api"
	"corral/runs/client"
	"corral/runs/server"
	"corral/ui"
)

// Attached is the terminal UI as a client of the state dir's server (or host's, whose
// state dir there is remoteDir): it starts rs's runs there unless the server already
// runs them, and the runs of always (-- CMD) in any case; quitting detaches: every
// run goes on in the server, and so they do when the terminal closes (SIGHUP) or
// Corral is told to stop; the shutdown key ends them.
func Attached(dir, host, remoteDir string, rs Runs, always []runs.Spec) error {
	if !isTerminal() {
		return usage(fmt.Errorf("%w (corral run, spawn and poll work without one)", ErrNoTerminal))
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	rem, err := client.AttachTo(dir, host, remoteDir, server.StartSelf)
	if err != nil {
		return err
	}
	defer rem.Close()
	m, err := attachedModel(rem, dir, host, rs, always)
	if err != nil {
		return usage(err)
	}
	p := tea.NewProgram(m, tea.WithoutSignalHandler())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gone := make(chan struct{})
	go func() {
		// Frame 0: the server paced the frames (package pacer); they are shown at once.
		ui.Bridge(ctx, rem.Events(), p.Send, 0)
		close(gone) // the stream ended: the server stopped or died
		p.Quit()
	}()
	signalled := make(chan struct{})
	go func() {
		select {
		case <-sigs: // the terminal closed, or we were told to stop: detach
			close(signalled)
			p.Quit()
		case <-ctx.Done():
		}
	}()
	final, err := p.Run()
	if err != nil {
		return err
	}
	fm, _ := final.(ui.Model)
	return left(fm, isClosed(gone) && !isClosed(signalled), dir, host, remoteDir)
}

// attachedModel starts the runs the server does not run yet (sized for this
// terminal) and builds the UI over rem.
func attachedModel(rem *client.Remote, dir, host string, rs Runs, always []runs.Spec) (ui.Model, error) {
	local := dir
	if host != "" {
		local = "" // the kept layout is in the state dir, which is on host
	}
	kept, keptPath := prefs(local)
	w, h, _ := term.GetSize(int(os.Stdout.Fd()))
	start := notRunning(rs.Start, rem.Initial())
	var selectID string
	for i, s := range append(start, always...) {
		// A spawn error is a run ended with spawn-error, shown in the UI.
		rep, _ := api.Spawn.Call(context.Background(), rem, api.Here(ui.SizedForTerminal(s, w, h, kept)))
		if i >= len(start) {
			selectID = rep.ID // corral -- CMD opens on the run it started
		}
	}
	return ui.New(ui.Options{Core: rem, Initial: rem.Initial(), History: rem.History(), Detachable: true, Keys: rs.Keys, Notify: rs.Notify.Terminal, Select: selectID,
		Pending: rs.Pending, Configured: rs.Configured, Mouse: rs.Mouse, InTmux: os.Getenv("TMUX") != "", Prefs: kept, PrefsPath: keptPath,
		Empty: "No runs in this server. Press n to start one, or corral spawn one from a script."})
}

// left says how the UI was left: every run ended (the shutdown key), the server gone
// under it (serverGone, not by a signal: ErrServerEnded), or detached.
func left(fm ui.Model, serverGone bool, dir, host, remoteDir string) error {
	switch {
	case fm.ShuttingDown() && fm.ShutdownErr() != nil: // the server lost, say: nothing was ended
		return fm.ShutdownErr()
	case fm.ShuttingDown():
		fmt.Fprintln(os.Stderr, "corral: every run ended; the server stopped")
	case serverGone && !fm.Detached():
		return ErrServerEnded
	default:
		where := dir
		if host != "" {
			where = host + ":" + remoteDir
		}
		fmt.Fprintf(os.Stderr, "corral: detached from %s; its runs keep running (corral attach to come back)\n", where)
	}
	return nil
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
