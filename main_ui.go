// The commands that open the terminal UI (corral with no command, demo, attach,
// replay) or draw a recording (export).

package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"time"

	"corral/config"
	"corral/demo"
	"corral/demo/export"
	"corral/runs"
	"corral/runs/cli/control"
	"corral/ui/launch"

	"golang.org/x/term"
)

// uiFlags are the flags of the UI commands.
type uiFlags struct {
	config, procfile, stateDir string
	autoplay, local            bool
	escapePolicy               string // for the run given after --
	restart                    string // --restart: the Procfile's runs' policy
}

func parseUIFlags(name string, args []string, demo bool) (uiFlags, []string, int, bool) {
	var f uiFlags
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.StringVar(&f.stateDir, "state-dir", "", "state directory")
	if demo {
		fs.BoolVar(&f.autoplay, "autoplay", false, "drive the demo by itself, then quit (for recordings and CI)")
	} else {
		fs.StringVar(&f.config, "config", "", "config file (default ./corral.toml, then the user config dir)")
		fs.StringVar(&f.procfile, "procfile", "", "a Procfile: each line becomes a pipe run")
		fs.BoolVar(&f.local, "local", false, "run the runs in this process, not the server: quitting ends them")
		fs.StringVar(&f.escapePolicy, "escape-policy", "", escapePolicyHelp)
		fs.StringVar(&f.restart, "restart", "", "with --procfile: the runs' restart policy: no, on-failure or always (default no)")
	}
	help := ""
	if !demo {
		help = usage()
	}
	code, ok := parseCommand(name, fs, args, help)
	return f, fs.Args(), code, ok
}

// cmdAttach opens the terminal UI on the state dir's server, starting it if needed;
// with --ssh, on the server of each host named (local: this machine's), one UI over
// all of them when there are several.
func cmdAttach(args []string) int {
	fs := flag.NewFlagSet("attach", flag.ContinueOnError)
	stateDir := fs.String("state-dir", "", "state directory (with --ssh: on HOST)")
	var dests []string
	fs.Func("ssh", "attach to the server on HOST, through ssh HOST corral proxy; repeatable: one UI over\n"+
		"several hosts (local names this machine's server)", func(v string) error {
		dests = append(dests, v)
		return nil
	})
	if code, ok := parseCommand("attach", fs, args, ""); !ok {
		return code
	}
	dir, err := config.ResolveStateDir(*stateDir, config.Default().StateDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral attach: %v\n", err)
		return exitFailure
	}
	notify, err := config.UserNotify() // how this terminal tells its user; a bad file says so
	if err != nil {
		warn(fmt.Sprintf("[notify] not read: %v", err))
	}
	configured, err := control.UserHosts()
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral attach: %v\n", err)
		return exitUsage
	}
	t, err := launch.AttachTarget(dir, *stateDir, dests, configured)
	if err != nil {
		return uiExit(err)
	}
	return uiExit(launch.Attached(t, launch.Runs{Notify: notify}, nil))
}

// uiExit maps the UI's end to an exit code, saying why on stderr when it failed.
func uiExit(err error) int {
	if err == nil {
		return 0
	}
	fmt.Fprintf(os.Stderr, "corral: %v\n", err)
	if errors.Is(err, launch.ErrUsage) {
		return exitUsage
	}
	return exitFailure
}

// cmdUI opens the terminal UI: the config file's runs, a Procfile's, or one PTY run
// given after --. Runs with autostart = false are listed, not started, until the
// operator starts one.
func cmdUI(args []string) int {
	f, rest, code, ok := parseUIFlags("corral", args, false)
	if !ok {
		return code
	}
	d, entries, rs, err := launch.Load(f.config, f.procfile)
	if err == nil && f.restart != "" {
		err = procfileRestart(f.procfile, f.restart, entries)
	}
	if err == nil {
		rs, err = launch.FromEntries(rs, d, entries)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral: %v\n", err)
		return exitUsage
	}
	var cmd []runs.Spec
	if len(rest) > 0 {
		// A command that cannot start is said here, not in a UI that opens on its
		// spawn-error (the program as the run would look it up: this PATH, this dir).
		if _, err := exec.LookPath(rest[0]); err != nil {
			fmt.Fprintf(os.Stderr, "corral: cannot start %s: %v\n", rest[0], err)
			return runExitCode(runs.Info{Reason: runs.SpawnError}, err, nil)
		}
		esc, err := escapePolicy(f.escapePolicy)
		if err != nil {
			fmt.Fprintf(os.Stderr, "corral: %v\n", err)
			return exitUsage
		}
		cmd = append(cmd, runs.Spec{Argv: rest, PTY: true, Timeout: d.Timeout, NoOutputTimeout: d.NoOutputTimeout, Escape: esc})
	}
	if f.local {
		rs.Start = append(rs.Start, cmd...)
		return uiExit(launch.Local(d, f.stateDir, rs, nil, warn))
	}
	dir, err := config.ResolveStateDir(f.stateDir, d.StateDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral: %v\n", err)
		return exitFailure
	}
	return uiExit(launch.Attached(launch.Target{Dir: dir, Hosts: rs.Hosts}, rs, cmd))
}

// cmdDemo opens the UI on the built-in scenario, with a private state dir so the
// user's registry is never touched.
func cmdDemo(args []string) int {
	f, _, code, ok := parseUIFlags("demo", args, true)
	if !ok {
		return code
	}
	dir := f.stateDir
	if dir == "" {
		var err error
		if dir, err = os.MkdirTemp("", "corral-demo-"); err != nil {
			fmt.Fprintf(os.Stderr, "corral demo: %v\n", err)
			return exitFailure
		}
		defer os.RemoveAll(dir)
	}
	uiErr, played := launch.Demo(dir, f.autoplay, warn)
	code = uiExit(uiErr)
	switch {
	case played != nil:
		fmt.Fprintf(os.Stderr, "corral demo: %v\n", played)
		return exitFailure
	case code == 0 && f.autoplay:
		fmt.Println("corral demo: autoplay finished; every run ended as expected")
	}
	return code
}

// cmdReplay plays an asciicast recording inside a Corral pane (launch.Replay).
func cmdReplay(args []string) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	speed := fs.Float64("speed", 1, "playback speed")
	stateDir := fs.String("state-dir", "", "state directory (to find a run's recording)")
	if code, ok := parseCommand("replay", fs, args, ""); !ok {
		return code
	}
	if fs.NArg() != 1 || *speed <= 0 {
		fmt.Fprintln(os.Stderr, "corral replay: want one FILE.cast or RUN and a --speed above 0 (corral replay --help)")
		return exitUsage
	}
	path, err := launch.Recording(fs.Arg(0), *stateDir)
	var cols, rows int
	if err == nil {
		cols, rows, err = demo.CastSize(path)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral replay: %v\n", err)
		return exitUsage
	}
	dir, err := os.MkdirTemp("", "corral-replay-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral replay: %v\n", err)
		return exitFailure
	}
	defer os.RemoveAll(dir)
	return uiExit(launch.Replay(dir, path, cols, rows, *speed, warn))
}

// cmdExport writes a recording as a picture (demo/export).
func cmdExport(args []string) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	f := export.AddFlags(fs)
	stateDir := fs.String("state-dir", "", "state directory (to find a run's recording)")
	// Flags may come after the files too (corral export demo.cast demo.gif --idle-limit
	// 2s), as corral's verbs take them; every word after "--" is a file.
	var files []string
	for rest := args; ; {
		if code, ok := parseCommand("export", fs, rest, ""); !ok {
			return code
		}
		if fs.NArg() == 0 {
			break
		}
		if consumed := rest[:len(rest)-fs.NArg()]; len(consumed) > 0 && consumed[len(consumed)-1] == "--" {
			files = append(files, fs.Args()...)
			break
		}
		files, rest = append(files, fs.Arg(0)), fs.Args()[1:]
	}
	opts, err := f.Options()
	if err == nil && len(files) != 2 {
		err = errors.New("want a FILE.cast or RUN and an OUT file")
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral export: %v (corral export --help)\n", err)
		return exitUsage
	}
	src, err := launch.Recording(files[0], *stateDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral export: %v\n", err)
		return exitUsage
	}
	if term.IsTerminal(int(os.Stderr.Fd())) {
		opts.Progress = export.ProgressTo(os.Stderr, "corral export")
	}
	res, err := export.File(src, files[1], opts)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral export: %v\n", err)
		return exitFailure
	}
	if res.Stopped != nil {
		fmt.Fprintf(os.Stderr, "corral export: %v\n", res.Stopped)
	}
	what := fmt.Sprintf("%d frames, %s", res.Frames, res.Duration.Round(10*time.Millisecond))
	if format, _ := export.Format(files[1]); opts.Still || format == ".png" {
		what = "a still picture"
	}
	fmt.Fprintf(os.Stderr, "corral export: wrote %s (%s, %d bytes)\n", files[1], what, res.Bytes)
	return 0
}

// procfileRestart gives a Procfile's runs the restart policy of --restart, with the
// default pacing (a Procfile line has no way to say one).
func procfileRestart(procfile, policy string, entries []config.RunEntry) error {
	if procfile == "" {
		return errors.New("--restart is for a Procfile's runs (--procfile); a config's say restart = … in their [[run]]")
	}
	p, err := runs.ParseRestartPolicy(policy)
	if err != nil {
		return fmt.Errorf("--restart: %w", err)
	}
	for i := range entries {
		entries[i].Restart = string(p)
	}
	return nil
}
