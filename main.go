// Command corral operates supervised runs from a terminal. This file is the CLI only:
// it parses flags, builds the supervisor and maps results to exit codes.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"

	tea "charm.land/bubbletea/v2"
	"golang.org/x/term"

	"corral/config"
	"corral/demo"
	"corral/ptyhost"
	"corral/runs"
	"corral/runs/parity"
	"corral/runs/server"
	"corral/runs/server/control"
	"corral/ui"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// Exit codes of corral run (also in its --help and the README).
const (
	exitFailure    = 1   // Corral itself failed (state dir unusable, …)
	exitUsage      = 2   // bad flags or arguments
	exitEscape     = 122 // the run ended with ownership-escape
	exitTimeout    = 124 // overall or no-output timeout
	exitCannotExec = 126 // the program exists but could not be started
	exitNotFound   = 127 // the program was not found
	exitSignalBase = 128 // + N: the run was killed by signal N it did not get from Corral
	exitGotSIGHUP  = 129
	exitGotSIGINT  = 130
	exitGotSIGTERM = 143
	exitGotSIGQUIT = 131
	exitGotSIGPIPE = 141 // corral run's stdout was closed by its reader (a pipeline stage's SIGPIPE)
)

const usage = `usage: corral [--config FILE | --procfile FILE] [--state-dir DIR] [--escape-policy own|fail] [-- CMD [ARGS...]]
       corral <command> [flags]

With no command, corral opens the terminal UI with the runs of ./corral.toml (or --config,
$CORRAL_CONFIG, the user config dir); with -- CMD, with that one PTY run started.

commands:
  demo [--autoplay]              open the UI on the built-in demo scenario
  check [FILE]                   validate a config file and print the effective config
  replay [--speed N] FILE.cast|RUN  play a recording (a run's, by id or name) in a pane
  run [flags] -- CMD [ARGS...]   run one command under supervision in the foreground
  parity [flags] -- CMD [ARGS...]  run it in a PTY and with pipes at once; show what differs
  ls [--json] [--all]            list the runs in the registry
  reconcile [--json]             close, reap or leave alone the runs of dead Corral instances
  attach [--state-dir DIR]       open the UI on the state dir's server (started if needed);
                                 quitting detaches: its runs keep running
  attach --ssh HOST              the same for the server on HOST (over ssh HOST corral proxy)
  proxy [--state-dir DIR]        bridge stdin/stdout to this host's server (what --ssh runs)
  server [--state-dir DIR]       run the state dir's server in the foreground (for systemd)

The server (one per state dir, started by the first spawn) keeps runs alive when every
terminal is gone; these verbs drive it, for scripts and agents:
%s  version                        print the version

Run 'corral run --help' for the run flags and exit codes.
`

func main() {
	demo.MaybeChild() // the binary doubles as the demo's and tests' child programs
	stop := profileCPU(os.Getenv("CORRAL_CPUPROFILE"))
	code := dispatch(os.Args[1:])
	stop()
	os.Exit(code)
}

// profileCPU writes a CPU profile of the whole process to path when it is set: how the
// idle and streaming figures of BENCHMARKS.md were taken apart (go tool pprof).
func profileCPU(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral: CORRAL_CPUPROFILE: %v\n", err)
		return func() {}
	}
	return func() { pprof.StopCPUProfile(); f.Close() }
}

func dispatch(args []string) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" && args[0] != "--version" {
		return cmdUI(args)
	}
	switch args[0] {
	case "demo":
		return cmdDemo(args[1:])
	case "check":
		return cmdCheck(args[1:])
	case "replay":
		return cmdReplay(args[1:])
	case "run":
		return cmdRun(args[1:])
	case "parity":
		return cmdParity(args[1:])
	case "ls":
		return cmdLs(args[1:])
	case "reconcile":
		return cmdReconcile(args[1:])
	case "server":
		return cmdServer(args[1:])
	case "attach":
		return cmdAttach(args[1:])
	case "proxy":
		return cmdProxy(args[1:])
	case "spawn":
		return cmdSpawn(args[1:])
	case "version", "--version":
		fmt.Println("corral", version)
		return 0
	case "help", "-h", "--help":
		fmt.Printf(usage, control.Usage)
		return 0
	}
	if control.IsVerb(args[0]) {
		return control.Main(args[0], args[1:], controlEnv())
	}
	fmt.Fprintf(os.Stderr, "corral: unknown command %q\n"+usage, args[0], control.Usage)
	return exitUsage
}

const runUsage = `usage: corral run [flags] -- CMD [ARGS...]
       corral run --shell [flags] -- 'COMMAND LINE'

Runs one command in its own session, streams its output, and ends it for exactly one
reason. When it ends, one line goes to stderr:
  corral: NAME ended: REASON (exit CODE|signal SIG) after DURATION; cleanup: STEPS, killed N, verified empty

flags:
%s
exit codes:
  the child's code   the run exited on its own
  128+N              the run was killed by signal N that Corral did not send
  124                overall or no-output timeout
  141                Corral's stdout was closed by its reader (| head): the run was ended
  (with --pty at a terminal, Ctrl-] then . ends the run as a cancel, whatever it traps;
   Ctrl-] twice sends one Ctrl-])
  130 / 143 / 129 / 131  Corral got SIGINT / SIGTERM / SIGHUP / SIGQUIT and ended the run
                     (a second signal cuts the grace short: SIGKILL at once)
  127                the program was not found
  126                the program could not be started for another reason
  122                a process escaped the run's session (ownership-escape)
  2                  usage error
  1                  Corral itself failed (e.g. the state dir is unusable)
`

// runFlags are corral run's flags.
type runFlags struct {
	pty, shell, json bool
	name, stateDir   string
	stopSignal       string
	timeout, grace   time.Duration
	noOutput         optDuration
	env              listFlag
	escapePolicy     string
}

// optDuration remembers whether it was set, so --no-output-timeout 0 (off) differs
// from not given (derived from --timeout).
type optDuration struct {
	d   time.Duration
	set bool
}

func (o *optDuration) String() string { return o.d.String() }
func (o *optDuration) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	o.d, o.set = d, true
	return nil
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

func parseRunFlags(args []string) (runFlags, []string, error) {
	var f runFlags
	rest, err := parseFlags(&f, "run", runUsage, args, func(fs *flag.FlagSet) {
		fs.BoolVar(&f.pty, "pty", false, "run in a pseudo-terminal (default: plain pipes)")
	})
	return f, rest, err
}

// parseFlags parses into f the flags every command that starts a run takes, and
// those more adds, for command name; --help prints usageText with the flags.
func parseFlags(f *runFlags, name, usageText string, args []string, more func(*flag.FlagSet)) ([]string, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&f.shell, "shell", false, "take one command line, run with $SHELL -c (default: argv, exec'd directly)")
	fs.StringVar(&f.name, "name", "", "run name (default: the program's name)")
	fs.DurationVar(&f.timeout, "timeout", 0, "overall timeout, e.g. 30m (default: none)")
	fs.Var(&f.noOutput, "no-output-timeout", "end the run after this long without output; 0 turns it off (default: derived from --timeout)")
	fs.DurationVar(&f.grace, "grace", 0, "time between the stop signal and SIGKILL (default 5s)")
	fs.StringVar(&f.stopSignal, "stop-signal", "", "signal that asks the run to stop, by name or number (default SIGTERM)")
	fs.BoolVar(&f.json, "json", false, "write a JSON report to stdout instead of streaming output")
	fs.StringVar(&f.stateDir, "state-dir", "", "state directory (default $CORRAL_STATE_DIR, $XDG_STATE_HOME/corral, ~/.local/state/corral)")
	fs.Var(&f.env, "env", "add KEY=VALUE to the run's environment (repeatable)")
	fs.StringVar(&f.escapePolicy, "escape-policy", "", escapePolicyHelp)
	if more != nil {
		more(fs)
	}
	fs.Usage = func() {
		var b strings.Builder
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fmt.Fprintf(os.Stderr, usageText, b.String())
	}
	// Parse prints the usage itself on -h/--help (once: it was printed twice before).
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	return fs.Args(), nil
}

// escapePolicyHelp documents --escape-policy for corral run and corral -- CMD.
const escapePolicyHelp = "a process that leaves the run's session: own (the run's: shown, ended with it; warn is an alias) or fail (end the run, ownership-escape) (default from the config, else own)"

// escapePolicy reads --escape-policy; "" leaves the config's default.
func escapePolicy(flagValue string) (runs.EscapePolicy, error) {
	if flagValue == "" {
		return "", nil
	}
	p, err := runs.ParseEscapePolicy(flagValue)
	if err != nil {
		return "", fmt.Errorf("--escape-policy %q: want own, warn or fail", flagValue)
	}
	return p, nil
}

func (f runFlags) spec(rest []string) (s runs.Spec, err error) {
	s = runs.Spec{Name: f.name, PTY: f.pty, Timeout: f.timeout, Grace: f.grace, Env: f.env}
	switch {
	case len(rest) == 0:
		return s, errors.New("no command given")
	case f.shell && len(rest) != 1:
		return s, errors.New("--shell takes exactly one command line (quote it)")
	case f.shell:
		s.Shell = rest[0]
	default:
		s.Argv = rest
	}
	for _, kv := range f.env {
		if !strings.Contains(kv, "=") {
			return s, fmt.Errorf("--env %q: want KEY=VALUE", kv)
		}
	}
	if s.Escape, err = escapePolicy(f.escapePolicy); err != nil {
		return s, err
	}
	if f.stopSignal != "" {
		sig, err := runs.ParseSignal(f.stopSignal)
		if err != nil {
			return s, fmt.Errorf("--stop-signal: %w", err)
		}
		s.StopSignal = sig
	}
	if f.noOutput.set {
		s.NoOutputTimeout = f.noOutput.d
		if f.noOutput.d == 0 {
			s.NoOutputTimeout = -1 // explicitly off
		}
	}
	return s, nil
}

// specOf is the spec a command's parsed flags and arguments give; when there is none
// (--help, or a usage error, said on stderr) it returns the exit code instead.
func specOf(cmd, helpOf string, f runFlags, rest []string, err error) (runs.Spec, int, bool) {
	if errors.Is(err, flag.ErrHelp) {
		return runs.Spec{}, 0, false
	}
	var spec runs.Spec
	if err == nil {
		spec, err = f.spec(rest)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral %s: %v (see corral %s --help)\n", cmd, err, helpOf)
		return spec, exitUsage, false
	}
	return spec, 0, true
}

func cmdRun(args []string) int {
	f, rest, err := parseRunFlags(args)
	spec, code, ok := specOf("run", "run", f, rest, err)
	if !ok {
		return code
	}
	// Screens (emulated only when read) tell when an agent rings for its human, which
	// pauses the no-output deadline.
	sup, reg, err := openSupervisor(f.stateDir, runs.WithScreens())
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral run: %v\n", err)
		return exitFailure
	}
	defer reg.Close()
	reportReconcile(sup)
	return runForeground(sup, spec, f.json)
}

// cmdSpawn is corral spawn: corral run's flags, the run started in the server.
func cmdSpawn(args []string) int {
	f, rest, err := parseRunFlags(args)
	spec, code, ok := specOf("spawn", "run", f, rest, err)
	if !ok {
		return code
	}
	return control.Spawn(spec, f.stateDir, f.json, controlEnv())
}

// startServer starts the state dir's server as a daemon (this same binary).
func startServer(dir string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	return server.StartDaemon(exe, "server", "--daemon", "--state-dir", dir)
}

// cmdAttach opens the terminal UI on the state dir's server, starting it if needed.
func cmdAttach(args []string) int {
	fs := flag.NewFlagSet("attach", flag.ContinueOnError)
	stateDir := fs.String("state-dir", "", "state directory (with --ssh: on HOST)")
	host := fs.String("ssh", "", "attach to the server on HOST, through ssh HOST corral proxy")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	dir, err := config.ResolveStateDir(*stateDir, config.Default().StateDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral attach: %v\n", err)
		return exitFailure
	}
	return runAttached(dir, *host, *stateDir, uiRuns{}, nil)
}

// runAttached is the terminal UI as a client of the state dir's server (or host's):
// it starts the config's runs there unless the server already runs them, and the
// runs of -- CMD always; quitting detaches: every run goes on in the server, and so
// they do when the terminal closes (SIGHUP) or Corral is told to stop; the shutdown
// key ends them.
func runAttached(dir, host, remoteDir string, rs uiRuns, always []runs.Spec) int {
	if !term.IsTerminal(int(os.Stdin.Fd())) || !term.IsTerminal(int(os.Stdout.Fd())) {
		fmt.Fprintln(os.Stderr, "corral: the UI needs a terminal (corral run, spawn and poll work without one)")
		return exitUsage
	}
	where := dir
	if host != "" {
		where = host + ":" + remoteDir
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	rem, err := attachTo(dir, host, remoteDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral: %v\n", err)
		return exitFailure
	}
	defer rem.Close()
	local := dir
	if host != "" {
		local = ""
	}
	kept, keptPath := uiPrefs(local)
	w, h, _ := term.GetSize(int(os.Stdout.Fd()))
	for _, s := range append(notRunning(rs.start, rem.Initial()), always...) {
		rem.Spawn(ui.SizedForTerminal(s, w, h, kept)) // a spawn error is a run ended with spawn-error, shown in the UI
	}
	m, err := ui.New(ui.Options{Core: rem, Initial: rem.Initial(), Detachable: true, Keys: rs.keys,
		Pending: rs.pending, Configured: rs.configured, Mouse: rs.mouse, InTmux: os.Getenv("TMUX") != "", Prefs: kept, PrefsPath: keptPath,
		Empty: "No runs in this server. Press n to start one, or corral spawn one from a script."})
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral: %v\n", err)
		return exitUsage
	}
	p := tea.NewProgram(m, tea.WithoutSignalHandler())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gone := make(chan struct{})
	go func() {
		ui.Bridge(ctx, rem.Events(), p.Send, 16*time.Millisecond)
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
	final, runErr := p.Run()
	if runErr != nil {
		fmt.Fprintf(os.Stderr, "corral: %v\n", runErr)
		return exitFailure
	}
	fm, _ := final.(ui.Model)
	switch {
	case fm.ShuttingDown():
		fmt.Fprintln(os.Stderr, "corral: every run ended; the server stopped")
	case isClosed(gone) && !isClosed(signalled) && !fm.Detached():
		fmt.Fprintln(os.Stderr, "corral: the server ended")
		return exitFailure
	default:
		fmt.Fprintf(os.Stderr, "corral: detached from %s; its runs keep running (corral attach to come back)\n", where)
	}
	return 0
}

// notRunning drops the specs the server already runs: a live run of the same name
// and command. Opening a config twice starts its runs once.
func notRunning(specs []runs.Spec, live []runs.Info) []runs.Spec {
	var out []runs.Spec
	for _, s := range specs {
		if !slices.ContainsFunc(live, func(i runs.Info) bool {
			return !i.Ended() && i.Name == s.DisplayName() && i.Spec.Shell == s.Shell &&
				slices.Equal(i.Spec.Argv, s.Argv) && i.Spec.PTY == s.PTY
		}) {
			out = append(out, s)
		}
	}
	return out
}

// attachTo attaches to the state dir's server, or with host to the one on host over
// ssh: each of the UI's connections is `ssh HOST corral proxy` ($CORRAL_SSH names
// another ssh), which starts the server there if none runs.
func attachTo(dir, host, remoteDir string) (*server.Remote, error) {
	if host == "" {
		return server.Attach(dir, func() error { return startServer(dir) }, 10*time.Second)
	}
	ssh := os.Getenv("CORRAL_SSH")
	if ssh == "" {
		ssh = "ssh"
	}
	return server.AttachWith(func() (*server.Client, error) {
		args := []string{host, "corral", "proxy"}
		if remoteDir != "" {
			args = append(args, "--state-dir", remoteDir)
		}
		cmd := exec.Command(ssh, args...)
		cmd.Stderr = os.Stderr
		conn, err := server.CommandConn(cmd)
		if err != nil {
			return nil, err
		}
		return server.NewClient(conn)
	})
}

// cmdProxy is corral proxy: this host's server (started if needed) bridged to stdin
// and stdout, for corral attach --ssh on another host.
func cmdProxy(args []string) int {
	fs := flag.NewFlagSet("proxy", flag.ContinueOnError)
	stateDir := fs.String("state-dir", "", "state directory")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	dir, err := config.ResolveStateDir(*stateDir, config.Default().StateDir)
	if err == nil {
		var c *server.Client
		if c, err = server.Connect(dir, func() error { return startServer(dir) }, 10*time.Second); err == nil {
			c.Close()
			err = server.Proxy(dir, os.Stdin, os.Stdout)
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral proxy: %v\n", err)
		return exitFailure
	}
	return 0
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// controlEnv is what the control verbs need of the CLI.
func controlEnv() control.Env {
	return control.Env{
		StateDir: func(flag string) (string, error) { return config.ResolveStateDir(flag, config.Default().StateDir) },
		Start:    startServer,
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
		Stdin: os.Stdin, Stdout: hostOut(), Stderr: os.Stderr,
	}
}

// cmdServer is corral server: the state dir's server, in the foreground (systemd, a
// terminal) or, with --daemon, as the daemon a client started (StartDaemon has
// already put it in its own session with stdio on /dev/null): it logs only to
// server.log then. It serves until corral shutdown, SIGTERM or SIGINT, and ends
// every live run (supervisor-shutdown) before it exits. SIGHUP is ignored: outliving
// terminals is its job.
func cmdServer(args []string) int {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	stateDir := fs.String("state-dir", "", "state directory")
	daemon := fs.Bool("daemon", false, "log to the state dir only (how clients start it)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	signal.Ignore(syscall.SIGHUP)
	// Screens: an attached UI is shown frames rendered here.
	sup, reg, err := openSupervisor(*stateDir, runs.WithScreens())
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral server: %v\n", err)
		return exitFailure
	}
	defer reg.Close()
	// The server lock comes before anything acts on the registry: of two servers
	// started at once, the one that loses must not reconcile.
	ln, err := server.Listen(reg.Dir())
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral server: %v\n", err)
		return exitFailure
	}
	defer ln.Close()
	logger, closeLog := serverLog(reg.Dir(), *daemon)
	defer closeLog()
	logger.Info("server started", "pid", os.Getpid(), "instance", reg.Instance(), "socket", ln.Path)
	sup.ReconcileInBackground(func(ds []runs.Decision, err error) {
		if err != nil {
			logger.Warn("reconcile", "err", err)
		}
		for _, d := range notable(ds) {
			logger.Info("reconciled", "run", d.ID, "name", d.Name, "decision", d.Decision, "detail", d.Detail)
		}
	})
	srv := server.New(sup, server.Options{Instance: reg.Instance(), StateDir: reg.Dir(), Log: logger})
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		select {
		case s := <-sigs:
			logger.Info("stopping", "signal", s.String())
			srv.Stop()
		case <-srv.Stopped():
		}
	}()
	err = srv.Serve(ln)
	ln.Close() // no client may reach a server that is ending its runs
	sup.Shutdown(context.Background())
	logger.Info("server stopped", "err", err)
	return 0
}

// serverLog is the server's log: server.log in the state dir, and stderr too unless
// it runs as a daemon.
func serverLog(dir string, daemon bool) (*slog.Logger, func()) {
	var w io.Writer = io.Discard
	f, err := server.OpenLog(dir)
	if err == nil {
		w = f
	}
	if !daemon {
		w = io.MultiWriter(w, os.Stderr)
	}
	return slog.New(slog.NewTextHandler(w, nil)), func() {
		if f != nil {
			f.Close()
		}
	}
}

const parityUsage = `usage: corral parity [flags] -- CMD [ARGS...]
       corral parity --shell [flags] -- 'COMMAND LINE'

Starts the command twice at the same moment, once in a PTY ("NAME (pty)") and once with
plain pipes ("NAME (pipe)"), under one supervisor and one lifecycle; writes --input to both,
then ends their input (pipe: stdin closed; PTY: ^D); waits for both and says what differs:
output, reason, exit code or signal, cleanup steps (a PTY run's hang-up aside), processes
killed, escapees. Durations are shown, not compared.

flags:
%s
normalization (unless --raw), in order:
%s
exit codes (as diff(1)):
  0  identical   1  different   2  trouble (bad flags, Corral failed, interrupted)
`

// cmdParity is corral parity: the same spec as a PTY run and as a pipe run (DESIGN §14).
func cmdParity(args []string) int {
	var opt parity.Options
	var f runFlags
	rules := "  - " + strings.Join(parity.Rules, "\n  - ")
	rest, err := parseFlags(&f, "parity", strings.Replace(parityUsage, "%s\nexit", rules+"\nexit", 1), args,
		func(fs *flag.FlagSet) {
			fs.StringVar(&opt.Input, "input", "", "text written to both runs, then their input ends")
			fs.BoolVar(&opt.Raw, "raw", false, "compare the raw bytes (no normalization)")
		})
	spec, code, ok := specOf("parity", "parity", f, rest, err)
	if !ok {
		return code
	}
	sup, reg, err := openSupervisor(f.stateDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral parity: %v\n", err)
		return exitUsage
	}
	defer reg.Close()
	reportReconcile(sup)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	res, err := parity.Run(ctx, sup, spec, opt)
	sup.Shutdown(context.Background())
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral parity: %v\n", err)
		return exitUsage
	}
	if f.json {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(res)
	} else {
		fmt.Print(res.Text())
	}
	switch {
	case ctx.Err() != nil:
		return exitUsage // interrupted: the comparison is of two cancelled runs
	case res.Identical:
		return 0
	}
	return 1
}

// openSupervisor opens the registry in the state dir and a supervisor that persists
// to it, detects escapes, and renews its leases.
func openSupervisor(stateDir string, extra ...runs.Option) (*runs.Supervisor, *runs.Registry, error) {
	return openSupervisorWith(config.Default(), stateDir, extra...)
}

func openSupervisorWith(d config.Defaults, stateDir string, extra ...runs.Option) (*runs.Supervisor, *runs.Registry, error) {
	dir, err := config.ResolveStateDir(stateDir, d.StateDir)
	if err != nil {
		return nil, nil, err
	}
	reg, err := runs.OpenRegistry(dir, d)
	if err != nil {
		return nil, nil, err
	}
	for _, w := range reg.Warnings() {
		fmt.Fprintf(os.Stderr, "corral: %s\n", w)
	}
	opts := append([]runs.Option{runs.WithDefaults(d), runs.WithRegistry(reg), runs.WithEscapeDetection(),
		runs.WithLogDir(filepath.Join(dir, "logs")), runs.WithPolicy(runs.Policy(d.ReconcilePolicy))}, extra...)
	sup, err := runs.New(opts...)
	if err != nil {
		reg.Close()
		return nil, nil, err
	}
	return sup, reg, nil
}

// reportReconcile reconciles at start, as every Corral process does, in the
// background: the command does not wait for orphans to end (issue 15.10), and Shutdown
// finishes what the pass stole. It says on stderr what it did to runs other than
// those it left alone (with CR LF: a PTY run may have the terminal in raw mode).
func reportReconcile(sup *runs.Supervisor) {
	sup.ReconcileInBackground(func(ds []runs.Decision, err error) {
		if err != nil {
			fmt.Fprintf(os.Stderr, "corral: reconcile: %v\r\n", err)
		}
		for _, d := range notable(ds) {
			fmt.Fprintf(os.Stderr, "corral: reconciled %s (%s): %s — %s\r\n", runs.Printable(d.ID), runs.Printable(d.Name),
				d.Decision, runs.Printable(d.Detail))
		}
	})
}

// notable are the decisions other than kept and left alone.
func notable(ds []runs.Decision) []runs.Decision {
	var out []runs.Decision
	for _, d := range ds {
		if d.Decision != runs.VerdictLeftAlone && d.Decision != runs.VerdictKept {
			out = append(out, d)
		}
	}
	return out
}

// runForeground spawns the run, wires the terminal to it, waits, and reports.
func runForeground(sup *runs.Supervisor, spec runs.Spec, asJSON bool) int {
	// A signal is caught before the spawn so none is lost between the two.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	// Writing to a closed stdout must be an error, not a SIGPIPE death that would
	// leave the run behind.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)

	tty := newTerminal(spec.PTY && !asJSON)
	defer tty.restore()
	stdout := &pipeEnd{w: hostOut()}
	if !asJSON {
		spec.Stdout, spec.Stderr = stdout, os.Stderr
	}
	if spec.PTY {
		spec.Cols, spec.Rows = tty.size()
	}
	id, spawnErr := sup.Spawn(spec)
	if id == "" {
		fmt.Fprintf(os.Stderr, "corral run: %v\n", spawnErr)
		return exitUsage
	}
	go forwardStdin(sup, id, spec.PTY, tty.raw)
	stopResize := tty.followSize(sup, id)
	defer stopResize()

	got := waitOrStop(sup, id, sigs)
	info, _ := sup.Wait(context.Background(), id)
	sup.Shutdown(context.Background()) // persists the final counters
	tty.restore()
	tail, _ := sup.Tail(id)
	if asJSON {
		escapees, _ := sup.Escapees(id)
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(runs.NewReport(info, escapees, tail))
	}
	fmt.Fprintf(os.Stderr, "corral: %s\n", runs.Summary(info))
	if stdout.closed.Load() && got == nil {
		return exitGotSIGPIPE
	}
	return exitCode(info, spawnErr, got)
}

// hostOut is stdout for a run's output: at a terminal, through a filter that keeps
// the program from acting on the terminal itself (titles, clipboard, DCS, window
// operations: issue 15.9); to a file or a pipe, the bytes as written.
func hostOut() io.Writer {
	if term.IsTerminal(int(os.Stdout.Fd())) {
		return ptyhost.NewHostFilter(os.Stdout)
	}
	return os.Stdout
}

// pipeEnd is corral run's stdout as the run's output is streamed to it: it notes a
// reader that went away (EPIPE; SIGPIPE is caught, so the write fails instead of
// killing Corral), after which the supervisor ends the run.
type pipeEnd struct {
	w      io.Writer
	closed atomic.Bool
}

func (p *pipeEnd) Write(b []byte) (int, error) {
	n, err := p.w.Write(b)
	if errors.Is(err, syscall.EPIPE) {
		p.closed.Store(true)
	}
	return n, err
}

// waitOrStop waits for the run to end, turning the first signal Corral receives into
// a stop: SIGINT is the operator cancelling, SIGTERM/SIGHUP/SIGQUIT are Corral being
// told to stop. A later signal cuts the grace short (SIGKILL now); none kills Corral
// while the run is being cleaned up. It returns the first signal, or nil.
func waitOrStop(sup *runs.Supervisor, id string, sigs <-chan os.Signal) os.Signal {
	done := make(chan struct{})
	go func() {
		sup.Wait(context.Background(), id)
		close(done)
	}()
	stop := func(s os.Signal) {
		reason := runs.SupervisorShutdown
		if s == syscall.SIGINT {
			reason = runs.ManualCancel
		}
		sup.Stop(id, reason)
	}
	return watchSignals(done, sigs, stop, sup.Hurry)
}

// forwardStdin copies Corral's stdin to the run. At EOF a pipe run's stdin is closed;
// a PTY has no separate stdin to close, so nothing is sent.
func forwardStdin(sup *runs.Supervisor, id string, pty bool, chord bool) {
	buf := make([]byte, 32<<10)
	var esc ptyhost.EscapeChord
	for {
		n, err := os.Stdin.Read(buf)
		in := buf[:n]
		if chord { // a raw terminal: Ctrl-] . ends the run whatever it traps
			var stop bool
			if in, stop = esc.Feed(in); stop {
				sup.Stop(id, runs.ManualCancel)
				return
			}
		}
		if len(in) > 0 && sup.Write(id, in) != nil {
			return
		}
		if err != nil {
			if !pty {
				sup.CloseStdin(id)
			}
			return
		}
	}
}

// exitCode maps the run's end to corral run's exit code. The signal Corral received
// decides only when it is what ended the run: a run that exited, timed out or escaped
// just as a signal came keeps its own code, matching the summary line.
func exitCode(info runs.Info, spawnErr error, got os.Signal) int {
	switch info.Reason {
	case runs.ManualCancel, runs.SupervisorShutdown:
		if code, ok := signalExit[got]; ok {
			return code
		}
		if info.Reason == runs.ManualCancel { // the escape chord: a cancel, as SIGINT is
			return exitGotSIGINT
		}
	case runs.Exit:
		if info.ExitCode != nil {
			return *info.ExitCode
		}
	case runs.Signal:
		return exitSignalBase + info.Signal
	case runs.OverallTimeout, runs.NoOutputTimeout:
		return exitTimeout
	case runs.OwnershipEscape:
		return exitEscape
	case runs.SpawnError:
		switch {
		case spawnErr == nil:
			return exitFailure // the process started; Corral could not record it
		case errors.Is(spawnErr, exec.ErrNotFound) || errors.Is(spawnErr, fs.ErrNotExist):
			return exitNotFound
		}
		return exitCannotExec
	}
	return exitFailure
}

// signalExit is corral run's exit code for the signal that ended the run.
var signalExit = map[os.Signal]int{
	syscall.SIGINT: exitGotSIGINT, syscall.SIGTERM: exitGotSIGTERM,
	syscall.SIGHUP: exitGotSIGHUP, syscall.SIGQUIT: exitGotSIGQUIT,
}

// terminal is Corral's own terminal while a PTY run is in the foreground: raw mode so
// every key reaches the run, and size changes forwarded.
type terminal struct {
	raw   bool
	state *term.State
}

func newTerminal(wantRaw bool) *terminal {
	t := &terminal{}
	fd := int(os.Stdin.Fd())
	if !wantRaw || !term.IsTerminal(fd) {
		return t
	}
	if st, err := term.MakeRaw(fd); err == nil {
		t.raw, t.state = true, st
	}
	return t
}

func (t *terminal) restore() {
	if t.state != nil {
		term.Restore(int(os.Stdin.Fd()), t.state)
		t.state = nil
	}
}

// size is the terminal's size, or zero (the default) when stdin is not a terminal.
func (t *terminal) size() (uint16, uint16) {
	w, h, err := term.GetSize(int(os.Stdin.Fd()))
	if err != nil || w <= 0 || h <= 0 {
		return 0, 0
	}
	return uint16(w), uint16(h)
}

// followSize forwards Corral's terminal size to a PTY run on every SIGWINCH.
func (t *terminal) followSize(sup *runs.Supervisor, id string) (stop func()) {
	if !t.raw {
		return func() {}
	}
	ch := make(chan os.Signal, 1)
	ptyhost.NotifyWinch(ch)
	quit := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				if c, r := t.size(); c > 0 {
					sup.Resize(id, c, r)
				}
			case <-quit:
				return
			}
		}
	}()
	return func() { signal.Stop(ch); close(quit) }
}

// listFlags parses the flags shared by ls and reconcile.
func listFlags(name string, args []string, all *bool) (asJSON bool, stateDir string, ok bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	fs.StringVar(&stateDir, "state-dir", "", "state directory")
	if all != nil {
		fs.BoolVar(all, "all", false, "include runs that ended longer ago than the finished-run TTL")
	}
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		if err == nil {
			fmt.Fprintf(os.Stderr, "corral %s: unexpected argument %q\n", name, fs.Arg(0))
		}
		return false, "", false
	}
	return asJSON, stateDir, true
}

// lsRun is a record as `corral ls --json` prints it.
type lsRun struct {
	runs.Record
	OwnerAlive bool `json:"owner_alive"`
}

func cmdLs(args []string) int {
	var all bool
	asJSON, stateDir, ok := listFlags("ls", args, &all)
	if !ok {
		return exitUsage
	}
	dir, err := config.StateDir(stateDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral ls: %v\n", err)
		return exitFailure
	}
	reg, err := runs.OpenRegistry(dir, config.Default())
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral ls: %v\n", err)
		return exitFailure
	}
	defer reg.Close()
	for _, w := range reg.Warnings() {
		fmt.Fprintf(os.Stderr, "corral: %s\n", w)
	}
	recs, err := reg.List()
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral ls: %v\n", err)
		return exitFailure
	}
	ttl := config.Default().FinishedTTL
	out := []lsRun{}
	for _, r := range recs {
		if !all && r.State == runs.Exited && time.Since(r.UpdatedAt) > ttl {
			continue
		}
		out = append(out, lsRun{Record: r, OwnerAlive: r.State != runs.Exited && reg.InstanceAlive(r.OwnerInstanceID)})
	}
	if asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(struct {
			Runs    []lsRun      `json:"runs"`
			Metrics runs.Metrics `json:"metrics"`
		}{out, reg.Totals()})
		return 0
	}
	printTable(out)
	return 0
}

func printTable(rs []lsRun) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tKIND\tSTATE\tREASON\tPID\tOWNER\tLEASE\tAGE")
	for _, r := range rs {
		owner, lease := "-", "-"
		if r.State != runs.Exited {
			owner = r.OwnerInstanceID + map[bool]string{true: " (alive)", false: " (dead)"}[r.OwnerAlive]
			lease = time.Until(r.LeaseExpiresAt).Round(time.Second).String()
		}
		reason := r.Reason.String()
		if reason == "" {
			reason = "-"
		}
		p := runs.Printable // a record on disk may be forged: nothing of it reaches the terminal raw
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\n", p(r.RunID), p(r.Name), p(string(r.Backend)), r.State,
			reason, r.PID, p(owner), lease, time.Since(r.CreatedAt).Round(time.Second))
	}
	tw.Flush()
}

func cmdReconcile(args []string) int {
	asJSON, stateDir, ok := listFlags("reconcile", args, nil)
	if !ok {
		return exitUsage
	}
	sup, reg, err := openSupervisor(stateDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral reconcile: %v\n", err)
		return exitFailure
	}
	defer reg.Close()
	defer sup.Shutdown(context.Background())
	ds, err := reconcileAndWait(sup)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral reconcile: %v\n", err)
		return exitFailure
	}
	enc := json.NewEncoder(os.Stdout)
	for _, d := range ds {
		if asJSON {
			enc.Encode(d)
			continue
		}
		fmt.Printf("%s\t%s\t%s\tpid %d\t%s\n", runs.Printable(d.ID), runs.Printable(d.Name), d.Decision, d.PID,
			runs.Printable(d.Detail))
	}
	if !asJSON && len(ds) == 0 {
		fmt.Println("nothing to reconcile")
	}
	return 0
}

// reconcileAndWait reconciles; a run whose owner is dead but whose lease has not
// expired yet may not be stolen (DESIGN §5), but its owner is certainly dead, so it
// waits for the pass the supervisor makes itself when that lease expires (at most the
// lease length away, saying so), rather than leave the orphan to someone who may never
// come (issue 12.2).
func reconcileAndWait(sup *runs.Supervisor) ([]runs.Decision, error) {
	type pass struct {
		ds  []runs.Decision
		err error
	}
	passes := make(chan pass, 8)
	sup.ReconcileInBackground(func(ds []runs.Decision, err error) { passes <- pass{ds, err} })
	p := <-passes
	if p.err != nil {
		return p.ds, p.err
	}
	all := p.ds
	wait, n := sup.LeaseWait(all)
	if n == 0 {
		return all, nil
	}
	fmt.Fprintf(os.Stderr, "corral reconcile: %d run(s) of dead Corral instances: waiting %s for their leases to expire\n",
		n, wait.Round(100*time.Millisecond))
	limit := time.After(wait + time.Minute) // the lease, then the orphans' grace
	for n > 0 {
		select {
		case p := <-passes:
			if p.err != nil {
				return all, p.err
			}
			all = merge(all, p.ds)
			_, n = sup.LeaseWait(all)
		case <-limit:
			return all, nil
		}
	}
	return all, nil
}

// merge is first's decisions with those of later in place of any for the same run
// (kept aside).
func merge(first, later []runs.Decision) []runs.Decision {
	byID := map[string]runs.Decision{}
	for _, d := range later {
		if d.Decision != runs.VerdictKept { // a run this pass stole and another ended: not news
			byID[d.ID] = d
		}
	}
	out := make([]runs.Decision, 0, len(first))
	for _, d := range first {
		if l, ok := byID[d.ID]; ok {
			if !d.Final() { // passes report in any order; what closed a run stands
				d = l
			}
			delete(byID, d.ID)
		}
		out = append(out, d)
	}
	for _, d := range later {
		if _, ok := byID[d.ID]; ok {
			out = append(out, d)
		}
	}
	return out
}

// uiFlags are the flags of the UI commands.
type uiFlags struct {
	config, procfile, stateDir string
	autoplay, local            bool
	escapePolicy               string // for the run given after --
}

func parseUIFlags(name string, args []string, demo bool) (uiFlags, []string, error) {
	var f uiFlags
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(os.Stderr)
	fs.StringVar(&f.stateDir, "state-dir", "", "state directory")
	if demo {
		fs.BoolVar(&f.autoplay, "autoplay", false, "drive the demo by itself, then quit (for recordings and CI)")
	} else {
		fs.StringVar(&f.config, "config", "", "config file (default ./corral.toml, then the user config dir)")
		fs.StringVar(&f.procfile, "procfile", "", "a Procfile: each line becomes a pipe run")
		fs.BoolVar(&f.local, "local", false, "run the runs in this process, not the server: quitting ends them")
		fs.StringVar(&f.escapePolicy, "escape-policy", "", escapePolicyHelp)
	}
	fs.Usage = func() { fmt.Fprintf(os.Stderr, usage, control.Usage) }
	err := fs.Parse(args)
	return f, fs.Args(), err
}

// cmdUI opens the terminal UI: the config file's runs, a Procfile's, or one PTY run
// given after --. Runs with autostart = false are listed, not started, until the
// operator starts one.
func cmdUI(args []string) int {
	f, rest, err := parseUIFlags("corral", args, false)
	if err != nil {
		return exitUsage
	}
	d, entries, prefs, err := loadRuns(f)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral: %v\n", err)
		return exitUsage
	}
	var specs, pending, configured []runs.Spec
	for _, e := range entries {
		s, err := runs.SpecFromEntry(e, d)
		if err != nil {
			fmt.Fprintf(os.Stderr, "corral: %v\n", err)
			return exitUsage
		}
		both := []runs.Spec{s}
		if e.Parity {
			p := parity.Pair(s)
			both = p[:]
		}
		configured = append(configured, both...)
		if e.Autostart {
			specs = append(specs, both...)
		} else {
			pending = append(pending, both...)
		}
	}
	var cmd []runs.Spec
	if len(rest) > 0 {
		esc, err := escapePolicy(f.escapePolicy)
		if err != nil {
			fmt.Fprintf(os.Stderr, "corral: %v\n", err)
			return exitUsage
		}
		cmd = append(cmd, runs.Spec{Argv: rest, PTY: true, Timeout: d.Timeout, NoOutputTimeout: d.NoOutputTimeout, Escape: esc})
	}
	if f.local {
		return runUI(d, f.stateDir, uiRuns{start: append(specs, cmd...), pending: pending, configured: configured,
			keys: prefs.keys, mouse: prefs.mouse}, nil)
	}
	dir, err := config.ResolveStateDir(f.stateDir, d.StateDir)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral: %v\n", err)
		return exitFailure
	}
	return runAttached(dir, "", "", uiRuns{start: specs, pending: pending, configured: configured,
		keys: prefs.keys, mouse: prefs.mouse}, cmd)
}

// loadRuns reads the config file (or Procfile) the flags and environment point at;
// the uiRuns it returns carries the file's UI preferences only (keys, mouse).
func loadRuns(f uiFlags) (config.Defaults, []config.RunEntry, uiRuns, error) {
	d := config.Default()
	if f.procfile != "" {
		entries, err := config.LoadProcfile(f.procfile)
		return d, entries, uiRuns{}, err
	}
	path, err := config.Discover(f.config)
	if err != nil || path == "" {
		return d, nil, uiRuns{}, err
	}
	file, err := config.Load(path)
	if err == nil {
		err = checkKeys(file)
	}
	if err != nil {
		return d, nil, uiRuns{}, err
	}
	return file.Apply(d), file.Runs, uiRuns{keys: file.Keys, mouse: file.UI.Mouse}, nil
}

// checkKeys checks the file's [keys] against the UI's actions; an error names the
// line of the binding it is about.
func checkKeys(file *config.File) error {
	err := ui.CheckKeys(file.Keys)
	var ke *ui.KeyError
	if errors.As(err, &ke) {
		if line := file.KeyLine(ke.Action); line > 0 {
			return fmt.Errorf("%s:%d: [keys] %s: %s", file.Path, line, ke.Action, ke.Msg)
		}
		return fmt.Errorf("%s: [keys] %s: %s", file.Path, ke.Action, ke.Msg)
	}
	return err
}

// uiRuns is what the UI opens with: the runs to start, the configured runs it lists
// without starting (autostart = false), every configured run (a removed one is listed
// as not started again), key overrides, the mouse ([ui] mouse), and whether they are
// corral replay's players.
type uiRuns struct {
	start, pending, configured []runs.Spec
	keys                       map[string][]string
	mouse, replay              bool
}

// uiPrefs reads the UI's kept choices in a state dir ("" for none: corral attach
// --ssh, whose state dir is on another host); a bad file is a warning.
func uiPrefs(dir string) (ui.Prefs, string) {
	if dir == "" {
		return ui.Prefs{}, ""
	}
	path := filepath.Join(dir, ui.PrefsFile)
	p, err := ui.LoadPrefs(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral: ignoring the saved layout: %v\n", err)
	}
	return p, path
}

// runUI runs the terminal UI over a supervisor with the given runs started. drive, when
// set, is started with the program and the supervisor (the demo's autoplay).
func runUI(d config.Defaults, stateDir string, rs uiRuns, drive func(*tea.Program, *runs.Supervisor)) int {
	if !term.IsTerminal(int(os.Stdin.Fd())) || !term.IsTerminal(int(os.Stdout.Fd())) {
		fmt.Fprintln(os.Stderr, "corral: the UI needs a terminal (use corral run for headless runs)")
		return exitUsage
	}
	// Signals are Corral's own from before the first run starts until the last one is
	// verified gone: the first ends the UI (then every run, with supervisor-shutdown),
	// a later one cuts the grace short. None may kill Corral mid-cleanup.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	sup, reg, err := openSupervisorWith(d, stateDir, runs.WithScreens())
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral: %v\n", err)
		return exitFailure
	}
	defer reg.Close()
	dir, _ := config.ResolveStateDir(stateDir, d.StateDir) // resolved already by openSupervisorWith
	kept, keptPath := uiPrefs(dir)
	w, h, _ := term.GetSize(int(os.Stdout.Fd()))
	for _, s := range rs.start {
		sup.Spawn(ui.SizedForTerminal(s, w, h, kept)) // a spawn error is a run ended with spawn-error, shown in the UI
	}
	snap, sub := sup.Subscribe()
	defer sub.Close()
	m, err := ui.New(ui.Options{Core: ui.Local{Supervisor: sup}, Initial: snap, Keys: rs.keys, Pending: rs.pending,
		Configured: rs.configured, Mouse: rs.mouse, InTmux: os.Getenv("TMUX") != "", Replay: rs.replay, Prefs: kept, PrefsPath: keptPath,
		Empty: "No runs. Press n to start one, or start corral with -- CMD, or add [[run]]s to corral.toml."})
	if err != nil {
		sup.Shutdown(context.Background())
		fmt.Fprintf(os.Stderr, "corral: %v\n", err)
		return exitUsage
	}
	p := tea.NewProgram(m, tea.WithoutSignalHandler())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go ui.Bridge(ctx, sub.C, p.Send, 16*time.Millisecond)
	sup.ReconcileInBackground(func(ds []runs.Decision, _ error) { p.Send(ui.ReconciledMsg{Decisions: ds}) })
	go watchSignals(ctx.Done(), sigs, func(os.Signal) { p.Quit() }, sup.Hurry)
	if drive != nil {
		go drive(p, sup)
	}
	_, runErr := p.Run()
	// Whatever ended the UI, nothing Corral started may outlive it.
	sctx, scancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer scancel()
	if err := sup.Shutdown(sctx); err != nil {
		fmt.Fprintf(os.Stderr, "corral: %v\n", err)
		return exitFailure
	}
	if runErr != nil {
		fmt.Fprintf(os.Stderr, "corral: %v\n", runErr)
		return exitFailure
	}
	return 0
}

// watchSignals turns the first signal into first(sig) and every later one into
// later(), until done closes, and returns the first signal (nil if none came).
func watchSignals(done <-chan struct{}, sigs <-chan os.Signal, first func(os.Signal), later func()) os.Signal {
	var got os.Signal
	for {
		select {
		case s := <-sigs:
			if got != nil {
				later()
				continue
			}
			got = s
			first(s)
		case <-done:
			return got
		}
	}
}

// cmdCheck validates a config file and prints the effective configuration.
func cmdCheck(args []string) int {
	flag := ""
	if len(args) > 1 {
		fmt.Fprintln(os.Stderr, "corral check: one file at most")
		return exitUsage
	}
	if len(args) == 1 {
		flag = args[0]
	}
	path, err := config.Discover(flag)
	if err == nil && path == "" {
		err = errors.New("no config file (looked for ./corral.toml and the user config dir)")
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral check: %v\n", err)
		return exitUsage
	}
	file, err := config.Load(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral check: %v\n", err)
		return exitUsage
	}
	d := file.Apply(config.Default())
	bad := false
	for _, e := range file.Runs { // every run's problem, not only the first's
		if _, err := runs.SpecFromEntry(e, d); err != nil {
			fmt.Fprintf(os.Stderr, "corral check: %s: %v\n", path, err)
			bad = true
		}
	}
	if bad {
		return exitUsage
	}
	for _, w := range runWarnings(file) {
		fmt.Fprintf(os.Stderr, "corral check: warning: %s\n", w)
	}
	if err := checkKeys(file); err != nil {
		fmt.Fprintf(os.Stderr, "corral check: %v\n", err)
		return exitUsage
	}
	fmt.Printf("# %s is valid; effective configuration:\n%s", path, file.Effective(config.Default()))
	return 0
}

// runWarnings are what may fail only when a run starts, said before: a cwd that does
// not exist, a program not on PATH (issue 14.12). Nothing is run to find out.
func runWarnings(file *config.File) []string {
	var out []string
	for _, e := range file.Runs {
		at := fmt.Sprintf("%s:%d: run %q", file.Path, e.Line, e.Name)
		if e.Cwd != "" {
			if st, err := os.Stat(e.Cwd); err != nil || !st.IsDir() {
				out = append(out, fmt.Sprintf("%s: cwd %s is not a directory here", at, e.Cwd))
			}
		}
		prog := ""
		if len(e.Argv) > 0 {
			prog = e.Argv[0]
		} else if f := strings.Fields(e.Cmd); len(f) > 0 && !strings.Contains(f[0], "=") {
			prog = f[0] // a shell line's first word; builtins and assignments may fool it
		}
		if prog == "" || strings.Contains(prog, "/") {
			continue
		}
		if _, err := exec.LookPath(prog); err != nil && !shellWord(prog) {
			out = append(out, fmt.Sprintf("%s: %s is not on PATH here", at, prog))
		}
	}
	return out
}

// shellWord reports a word a shell line may start with that is no program.
func shellWord(w string) bool {
	switch w {
	case "cd", "exec", "export", "set", "source", ".", "if", "for", "while", "test", "[", "{", "(", "true", "false", "echo", "printf", "read", "ulimit", "umask", "trap", "wait":
		return true
	}
	return false
}

// cmdDemo opens the UI on the built-in scenario, with a private state dir so the
// user's registry is never touched.
func cmdDemo(args []string) int {
	f, _, err := parseUIFlags("demo", args, true)
	if err != nil {
		return exitUsage
	}
	dir := f.stateDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "corral-demo-"); err != nil {
			fmt.Fprintf(os.Stderr, "corral demo: %v\n", err)
			return exitFailure
		}
		defer os.RemoveAll(dir)
	}
	var specs []runs.Spec
	for _, r := range demo.Scenario() {
		specs = append(specs, runs.Spec{Name: r.Name, Argv: r.Argv, Shell: r.Shell, Env: r.Env, PTY: r.PTY,
			Timeout: r.Timeout, NoOutputTimeout: r.NoOutputTimeout, Grace: r.Grace, Escape: runs.EscapePolicy(r.EscapePolicy)})
	}
	if !f.autoplay {
		return runUI(config.Default(), dir, uiRuns{start: specs}, nil)
	}
	expect := map[string]string{}
	for _, r := range demo.Scenario() {
		if r.Expect != "" {
			expect[r.Name] = r.Expect
		}
	}
	played := make(chan error, 1)
	drive := func(p *tea.Program, sup *runs.Supervisor) {
		played <- ui.Autoplay(p.Send, ui.Local{Supervisor: sup}, expect)
	}
	code := runUI(config.Default(), dir, uiRuns{start: specs}, drive)
	select {
	case err := <-played:
		if err != nil {
			fmt.Fprintf(os.Stderr, "corral demo: %v\n", err)
			return exitFailure
		}
	case <-time.After(5 * time.Second):
		fmt.Fprintln(os.Stderr, "corral demo: the UI ended before the autoplay did")
		return exitFailure
	}
	if code == 0 {
		fmt.Println("corral demo: autoplay finished; every run ended as expected")
	}
	return code
}

// cmdReplay plays an asciicast recording inside a Corral pane: a PTY run of the
// built-in player, so it is a run like any other; its keys (pause, seek, speed) work
// outside focus too, and its progress is in the pane's title (ui/replay.go).
// castOf is the recording to play: a file, or the recording of a run of the state
// dir's registry named by its id, a unique prefix of it or its name (the newest run
// of that name): every PTY run writes <state dir>/logs/<id>.cast (issue 14.10).
func castOf(arg, stateDir string) (string, error) {
	if st, err := os.Stat(arg); err == nil && !st.IsDir() {
		return filepath.Abs(arg)
	}
	dir, err := config.ResolveStateDir(stateDir, config.Default().StateDir)
	if err != nil {
		return "", err
	}
	reg, err := runs.OpenRegistry(dir, config.Default())
	if err != nil {
		return "", err
	}
	defer reg.Close()
	recs, err := reg.List()
	if err != nil {
		return "", err
	}
	var found *runs.Record
	for i, r := range recs {
		match := r.RunID == arg || r.Name == arg || strings.HasPrefix(r.RunID, arg)
		if match && (found == nil || r.CreatedAt.After(found.CreatedAt)) {
			found = &recs[i]
		}
	}
	if found == nil {
		return "", fmt.Errorf("%s is neither a file nor a run in %s", arg, dir)
	}
	for _, l := range found.Logs {
		if strings.HasSuffix(l, ".cast") {
			return l, nil
		}
	}
	return "", fmt.Errorf("run %s (%s) has no recording: only PTY runs are recorded", found.RunID, runs.Printable(found.Name))
}

func cmdReplay(args []string) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	speed := fs.Float64("speed", 1, "playback speed")
	stateDir := fs.String("state-dir", "", "state directory (to find a run's recording)")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 || *speed <= 0 {
		fmt.Fprintln(os.Stderr, "usage: corral replay [--speed N] [--state-dir DIR] FILE.cast|RUN")
		return exitUsage
	}
	path, err := castOf(fs.Arg(0), *stateDir)
	var cols, rows int
	if err == nil {
		cols, rows, err = demo.CastSize(path)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral replay: %v\n", err)
		return exitUsage
	}
	argv, env := demo.Child("cast-play", path, fmt.Sprint(*speed))
	dir, err := os.MkdirTemp("", "corral-replay-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral replay: %v\n", err)
		return exitFailure
	}
	defer os.RemoveAll(dir)
	// At the recording's size, whatever the pane's: the player follows its resizes.
	spec := runs.Spec{Name: "replay " + filepath.Base(path), Argv: argv, Env: env, PTY: true,
		Cols: uint16(min(cols, 1000)), Rows: uint16(min(rows, 1000)), FixedSize: true}
	_, _, rs, err := loadRuns(uiFlags{}) // the [keys] and [ui] of the config corral would open
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral replay: %v; the default keys apply\n", err)
	}
	rs.start, rs.pending, rs.replay = []runs.Spec{spec}, nil, true
	return runUI(config.Default(), dir, rs, nil)
}
