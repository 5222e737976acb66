// The other commands of the table: ls, check, reconcile, doctor, proxy and server,
// and what the control verbs need of the CLI (controlEnv).

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"corral/config"
	"corral/runs"
	"corral/runs/cli/control"
	"corral/runs/cli/doctor"
	"corral/runs/cli/foreground/hostterm"
	"corral/runs/cli/listing"
	"corral/runs/client"
	"corral/runs/keeper"
	"corral/runs/server"
	"corral/ui/launch"
)

// cmdDoctor is corral doctor: how runs are owned here and by the server, and why.
func cmdDoctor(args []string) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	stateDir := fs.String("state-dir", "", "state directory")
	timeout := fs.Duration("timeout", 0, fmt.Sprintf("how long each [[host]] is given to say its corral version over ssh (default %v):\n"+
		"one that has not answered by then is reported as not reached", client.OutputLimit))
	if code, ok := parseCommand("doctor", fs, args, ""); !ok {
		return code
	}
	return doctor.Report(os.Stdout, *stateDir, *timeout)
}

// listFlags parses the flags shared by ls and reconcile (all, host and timeout: ls's
// own).
func listFlags(name string, args []string, all *bool, host *string, timeout *time.Duration) (asJSON bool, stateDir string, code int, ok bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	fs.StringVar(&stateDir, "state-dir", "", "state directory")
	if all != nil {
		fs.BoolVar(all, "all", false, "include runs that ended longer ago than the finished-run TTL")
	}
	if host != nil {
		fs.StringVar(host, "host", "", "only this host's runs: local, or a [[host]] of the config (default: every host)")
	}
	if timeout != nil {
		fs.DurationVar(timeout, "timeout", 0, fmt.Sprintf("how long each other host is given to list its runs over ssh (default %v): one that\n"+
			"has not answered by then is listed as its error, beside the others' runs", client.OutputLimit))
	}
	code, ok = parseCommand(name, fs, args, "")
	if ok && fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "corral %s: unexpected argument %q (corral %s --help)\n", name, fs.Arg(0), name)
		code, ok = exitUsage, false
	}
	return asJSON, stateDir, code, ok
}

// warn says on stderr what Corral found wrong and went on regardless.
func warn(w string) { fmt.Fprintf(os.Stderr, "corral: %s\n", w) }

// cmdProxy is corral proxy: this host's server (started if needed) bridged to stdin
// and stdout, for corral attach --ssh on another host.
func cmdProxy(args []string) int {
	fs := flag.NewFlagSet("proxy", flag.ContinueOnError)
	stateDir := fs.String("state-dir", "", "state directory")
	start := fs.Bool("start", false, "start the state dir's server when none runs (what spawn --host and a UI's first\n"+
		"attachment ask); without it only a running server is bridged, and none is exit 3, so a UI\n"+
		"that reconnects never undoes a corral shutdown")
	if code, ok := parseCommand("proxy", fs, args, ""); !ok {
		return code
	}
	dir, err := config.ResolveStateDir(*stateDir, config.Default().StateDir)
	switch {
	case err != nil:
	case *start:
		err = client.ProxySelf(dir, os.Stdin, os.Stdout, server.StartSelf)
	default:
		err = client.Proxy(dir, os.Stdin, os.Stdout)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral proxy: %v\n", err)
		if errors.Is(err, client.ErrNoServer) && !*start {
			return client.ExitNoServer
		}
		return exitFailure
	}
	return 0
}

// controlEnv is what the control verbs need of the CLI.
func controlEnv() control.Env {
	return control.Env{
		StateDir: func(flag string) (string, error) { return config.ResolveStateDir(flag, config.Default().StateDir) },
		Start:    server.StartSelf,
		// A run ended through the server exits wait as corral run would have: kill is
		// the operator's cancel (SIGINT, 130), shutdown Corral's own (SIGTERM, 143).
		ExitCode: func(i runs.Info) int {
			var spawnErr error
			if i.SpawnErr != "" {
				spawnErr = errors.New(i.SpawnErr)
			}
			got := map[runs.Reason]os.Signal{runs.ManualCancel: syscall.SIGINT,
				runs.SupervisorShutdown: syscall.SIGTERM}[i.Reason]
			return exitCode(i, spawnErr, got)
		},
		Stdin: os.Stdin, Stdout: hostterm.Stdout(), Stderr: os.Stderr,
		RunOutput: func(raw bool) io.Writer { return hostterm.Output(raw) },
	}
}

// cmdServer is corral server: the state dir's server (server.Run) until corral
// shutdown, SIGTERM or SIGINT.
func cmdServer(args []string) int {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	stateDir := fs.String("state-dir", "", "state directory")
	daemon := fs.Bool("daemon", false, "log to the state dir only (how clients start it)")
	windowSize := fs.String("window-size", "", "a run several attached UIs show takes the size of the latest active, the smallest or the largest (default: [ui] window_size, else latest)")
	upgrade := fs.Bool("upgrade", false, "hand the running server's runs to a server of this binary; no run ends")
	noKeeper := fs.Bool("no-keeper", false, "no keeper: the runs end with the server")
	if code, ok := parseCommand("server", fs, args, ""); !ok {
		return code
	}
	switch *windowSize {
	case "", config.WindowLatest, config.WindowSmallest, config.WindowLargest:
	default:
		fmt.Fprintf(os.Stderr, "corral server: --window-size %q: want latest, smallest or largest (corral server --help)\n", *windowSize)
		return exitUsage
	}
	if *upgrade {
		return control.Upgrade(*stateDir, controlEnv())
	}
	// The server and its keeper hold nothing of whoever started them but stdio (a
	// caller's pipe on fd 7, make's jobserver) and the keeper's socket.
	server.CloseInherited()
	if keeper.Supported && !*noKeeper && !keeper.Started() {
		// This process keeps the runs; the server proper is its child (ARCHITECTURE.md,
		// "Runs that outlive their server (the keeper)").
		if err := server.Keep(*stateDir, append([]string{"server"}, args...), *daemon); err != nil {
			fmt.Fprintf(os.Stderr, "corral server: %v\n", err)
			return exitFailure
		}
		return 0
	}
	if err := server.Run(*stateDir, *daemon, *windowSize, warn); err != nil {
		fmt.Fprintf(os.Stderr, "corral server: %v\n", err)
		return exitFailure
	}
	return 0
}

func cmdReconcile(args []string) int {
	asJSON, stateDir, code, ok := listFlags("reconcile", args, nil, nil, nil)
	if !ok {
		return code
	}
	// The runs a live keeper keeps, though no server renews their leases, are left to
	// it by the reconcile itself (reconcile_keeper.go), whoever runs it: each says so.
	sup, reg, err := runs.Open(config.Default(), stateDir, warn)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral reconcile: %v\n", err)
		return exitFailure
	}
	defer reg.Close()
	defer sup.Shutdown(context.Background())
	ds, err := sup.ReconcileAndWait(func(n int, wait time.Duration) {
		fmt.Fprintf(os.Stderr, "corral reconcile: %d run(s) of dead Corral instances: waiting %s for their leases to expire\n",
			n, wait.Round(100*time.Millisecond))
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral reconcile: %v\n", err)
		return exitFailure
	}
	listing.WriteDecisions(os.Stdout, ds, asJSON)
	return 0
}

// cmdCheck is corral check [FILE] (control.Check); the UI's key map checks [keys].
func cmdCheck(args []string) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Print(commandHelp("check", nil))
		return 0
	}
	if len(args) > 1 {
		fmt.Fprintln(os.Stderr, "corral check: one file at most")
		return exitUsage
	}
	return control.Check(strings.Join(args, ""), launch.CheckKeys, os.Stdout, os.Stderr)
}

// cmdLs is corral ls (control.Ls).
func cmdLs(args []string) int {
	var a control.LsArgs
	var code int
	var ok bool
	a.JSON, a.StateDir, code, ok = listFlags("ls", args, &a.All, &a.Host, &a.Timeout)
	if !ok {
		return code
	}
	return control.Ls(a, os.Stdout, os.Stderr)
}
