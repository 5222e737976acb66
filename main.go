// main.go is corral's command table (every command and verb declared once, in table)
// and the process's entry (main, dispatch). Each command's flags, usage text and exit
// codes stand here, beside its line in the table; its work is done by the package
// whose job it is.

// GOMAXPROCS is set once, at start, from the CPUs and the cgroup's limit: the Go
// runtime would otherwise read them again every second its monitor thread is awake,
// which an idle server or UI pays for on every wake-up, for a limit that does not
// change under a terminal program.
//
//go:debug updatemaxprocs=0

// Command corral operates supervised runs from a terminal. This package is the CLI's
// entry only: it parses flags, dispatches each command of its table to the package
// whose job it is (runs/cli/foreground, ui/launch, runs/server, runs/cli/control and
// the other bodies under runs/cli) and maps their results to exit codes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"corral/config"
	"corral/demo"
	"corral/demo/export"
	"corral/runs"
	"corral/runs/api"
	"corral/runs/cli"
	"corral/runs/cli/control"
	"corral/runs/cli/doctor"
	"corral/runs/cli/foreground"
	"corral/runs/cli/foreground/hostterm"
	"corral/runs/cli/listing"
	"corral/runs/cli/parity"
	"corral/runs/client"
	"corral/runs/keeper"
	"corral/runs/server"
	"corral/ui/launch"
	"golang.org/x/term"
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

// usageHead, verbsHead and usageTail are corral --help around the table's commands
// and verbs.
const usageHead = `usage: corral [--config FILE | --procfile FILE] [--state-dir DIR] [--escape-policy own|fail] [-- CMD [ARGS...]]
       corral <command> [flags]

With no command, corral opens the terminal UI with the runs of ./corral.toml (or --config,
$CORRAL_CONFIG, the user config dir); with -- CMD, with that one PTY run started.

commands:
`

const verbsHead = `
The server (one per state dir, started by the first spawn) keeps runs alive when every
terminal is gone; these verbs drive it, for scripts and agents:
`

const usageTail = `
'corral help COMMAND' (or COMMAND --help) tells one command's flags; 'corral run --help'
also the exit codes.
`

// usage is corral --help: the commands, then the verbs, from the table.
func usage() string {
	return usageHead + table.Lines(cli.Own) + verbsHead + table.Lines(cli.Verb) + control.VerbsNote +
		table.Lines(cli.Last) + usageTail
}

func main() {
	demo.MaybeChild() // the binary doubles as the demo's and tests' child programs
	api.Binary = version
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

// table is every corral command, each declared once: its line in corral --help, its
// --help, and the function that runs it. help, version and spawn come first: among
// names equally close to a mistyped one, did-you-mean names the earliest.
var table cli.Table

func init() {
	table = cli.Table{
		{Name: "help", Synopsis: "[COMMAND]", Summary: "corral --help, or one command's help", Part: cli.Unlisted, Run: cmdHelp},
		{Name: "version", Summary: "print the version", Part: cli.Last, Run: cmdVersion},
		{Name: "spawn", Synopsis: "[run flags] -- CMD [ARGS...]", Summary: "start a run in the server (started if needed); prints its id", Part: cli.Verb, Run: cmdSpawn},
		{Name: "demo", Synopsis: "[--autoplay]", Summary: "open the UI on the built-in demo scenario", Run: cmdDemo},
		{Name: "check", Synopsis: "[FILE]", Summary: "validate a config file and print the effective config", Run: cmdCheck},
		{Name: "replay", Synopsis: "[--speed N] FILE.cast|RUN", Summary: "play a recording (a run's, by id or name) in a pane", Run: cmdReplay},
		{Name: "export", Synopsis: "[flags] FILE.cast|RUN OUT.svg|OUT.gif|OUT.png", Summary: "a recording (a run's, by id or name) as an animated SVG or GIF, or a\n" +
			"still picture (--at, --last), drawn as its pane showed it", Run: cmdExport},
		{Name: "run", Synopsis: "[flags] -- CMD [ARGS...]", Summary: "run one command under supervision in the foreground", Run: cmdRun},
		{Name: "parity", Synopsis: "[flags] -- CMD [ARGS...]", Summary: "run it in a PTY and with pipes at once; show what differs", Run: cmdParity},
		{Name: "ls", Synopsis: "[--json] [--all] [--host H] [--timeout DUR]", Summary: "list the runs in the registry (and every [[host]]'s)", Run: cmdLs},
		{Name: "reconcile", Synopsis: "[--json]", Summary: "close, reap or leave alone the runs of dead Corral instances", Run: cmdReconcile},
		{Name: "attach", Synopsis: "[--state-dir DIR] [--ssh HOST]", Summary: "open the UI on the state dir's server (started if needed);\n" +
			"quitting detaches: its runs keep running; --ssh HOST: the server\non HOST (over ssh HOST corral proxy)", Run: cmdAttach},
		{Name: "web", Synopsis: "[--listen ADDR] [--read-only] [--token-file F] [--exposed] [--host NAMES] [--ssh HOST]", Summary: "serve the runs to a browser: the list, each run's screen, keys and answers;\n" +
			"a client of the state dir's server (started if needed) and every host's, as attach, token required", Run: cmdWeb},
		{Name: "up", Synopsis: "[--config FILE] [--wait] [--timeout DUR]", Summary: "start the config's runs in the server without the UI, each\n" +
			"after what it depends on; --wait: until each met what its\n" +
			"dependents need (started, ready or succeeded)", Run: cmdUp},
		{Name: "down", Synopsis: "[--config FILE]", Summary: "end the config's runs in the server, dependents first", Run: cmdDown},
		{Name: "graph", Synopsis: "[--config FILE]", Summary: "the config's runs, what each waits for, and their state", Run: cmdGraph},
		{Name: "proxy", Synopsis: "[--state-dir DIR] [--start]", Summary: "bridge stdin/stdout to this host's running server (what --ssh runs)", Run: cmdProxy},
		{Name: "server", Synopsis: "[--state-dir DIR] [--upgrade] [--window-size POLICY]", Summary: "run the state dir's server in the foreground (for systemd), under its keeper\n" +
			"so its runs outlive it; --upgrade: hand the running server's runs to\na server of this binary, no run ends; --window-size: the size of a run\n" +
			"several attached UIs show: latest, smallest or largest ([ui] window_size)", Run: cmdServer},
		{Name: "doctor", Synopsis: "[--state-dir DIR] [--timeout D]", Summary: "how runs are owned here and by the server (cgroups or sessions), and why", Run: cmdDoctor},
	}
	table = append(table, control.Commands(controlEnv)...)
}

// parseCommand parses the flags of command name the one way (cli.ParseFlags):
// --help prints help (or the command's synopsis, summary and flags) to stdout and
// ends the command with 0; a mistake is one line on stderr and ends it with 2.
func parseCommand(name string, fs *flag.FlagSet, args []string, help string) (code int, ok bool) {
	err := cli.ParseFlags(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		if help == "" {
			help = commandHelp(name, fs)
		}
		fmt.Print(help)
		return 0, false
	case err != nil:
		cmd := strings.TrimSuffix("corral "+name, " corral") // the UI's flags are corral's own
		fmt.Fprintf(os.Stderr, "%s: %v (%s --help)\n", cmd, err, cmd)
		return exitUsage, false
	}
	return 0, true
}

// commandHelp is a command's --help: its synopsis, what it does, and its flags.
func commandHelp(name string, fs *flag.FlagSet) string {
	c, _ := table.Find(name)
	return c.Help(fs)
}

// cmdHelp is corral help [COMMAND]: the whole usage, or one command's help (its
// --help).
func cmdHelp(args []string) int {
	if len(args) == 0 {
		fmt.Print(usage())
		return 0
	}
	if args[0] == "-h" || args[0] == "--help" {
		args[0] = "help"
	}
	if c, ok := table.Find(args[0]); ok {
		if c.Name == "help" {
			fmt.Print(commandHelp("help", nil))
			return 0
		}
		return c.Run([]string{"--help"})
	}
	fmt.Fprintf(os.Stderr, "corral help: %s\n", table.Unknown(args[0]))
	return exitUsage
}

// cmdVersion is corral version (and corral --version).
func cmdVersion(args []string) int {
	if len(args) == 1 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Print(commandHelp("version", nil))
		return 0
	}
	fmt.Printf("corral %s (protocol %d)\n", version, api.Version)
	return 0
}

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

// dispatch runs the command args name (with none, or a flag first, the UI) and
// returns the process's exit code.
func dispatch(args []string) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" && args[0] != "--version" {
		return cmdUI(args)
	}
	name := map[string]string{"-h": "help", "--help": "help", "--version": "version"}[args[0]]
	if name == "" {
		name = args[0]
	}
	if c, ok := table.Find(name); ok {
		return c.Run(args[1:])
	}
	fmt.Fprintf(os.Stderr, "corral: %s\n", table.Unknown(args[0]))
	return exitUsage
}

const runUsage = `usage: corral run [flags] -- CMD [ARGS...]
       corral run --shell [flags] -- 'COMMAND LINE'

Runs one command in its own session, streams its output, and ends it for exactly one
reason. When it ends, one line goes to stderr:
  corral: NAME ended: REASON (exit CODE|signal SIG) after DURATION; cleanup: STEPS, killed N, verified empty

Flags go before the command: parsing stops at its first word, and every word after
it is the command's. A Corral flag there (corral run sleep 9 --name x) is passed to
the command, with a warning on stderr; -- before the command silences it.

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

const spawnUsage = `usage: corral spawn [flags] -- CMD [ARGS...]
       corral spawn --shell [flags] -- 'COMMAND LINE'

Starts one command as a run of the state dir's server (started if needed) and prints
its id (--json: the spawn reply); the run goes on when this command returns. The flags
are corral run's; corral wait ID waits for its end and exits as corral run would.

Flags go before the command: parsing stops at its first word, and every word after
it is the command's. A Corral flag there (corral spawn sleep 9 --name x) is passed to
the command, with a warning on stderr; -- before the command silences it.

flags:
%s
exit codes:
  0    the run was started
  1    no server could be reached or started, or the run could not start (spawn-error:
       the reason on stderr)
  2    usage error
`

// runFlags are corral run's flags.
type runFlags struct {
	pty, shell, json bool
	name, stateDir   string
	dir              string
	stopSignal       string
	timeout, grace   time.Duration
	noOutput         optDuration
	env              listFlag
	escapePolicy     string
	agent            string
	worktree         bool   // --worktree: a git worktree of its own
	branch, base     string // its branch and base (--branch, --base need --worktree)
	restart          string // --restart: its restart policy
	backoff          string // --backoff: "1s" or "1s..30s"
	maxRestarts      int    // --max-restarts; -1: not given
	ready            string // --ready KIND=TARGET: its readiness probe
	dependsOn        listFlag
	onDepLost        string // --on-dependency-lost
}

// worktreeFlags adds --worktree, --branch and --base to fs (spawn and run).
func (f *runFlags) worktreeFlags(fs *flag.FlagSet) {
	fs.BoolVar(&f.worktree, "worktree", false, "run in a git worktree of its own: a new branch from --base, checked out under the state dir's worktrees/ ([worktree] root in the config)")
	fs.StringVar(&f.branch, "branch", "", "with --worktree: the branch (default corral/NAME, made unique; an existing one not checked out elsewhere is reused)")
	fs.StringVar(&f.base, "base", "", "with --worktree: the commit, branch or tag the branch starts from (default: HEAD of the repository holding --dir)")
}

// optDuration remembers whether it was set, so --no-output-timeout 0 (off) differs
// from not given (derived from --timeout).
type optDuration struct {
	d   time.Duration
	set bool
}

func (o *optDuration) String() string { return o.d.String() }
func (o *optDuration) Get() any       { return o.d }
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

func parseRunFlags(name, usageText string, args []string) (runFlags, []string, error) {
	var f runFlags
	rest, err := parseFlags(&f, name, usageText, args, func(fs *flag.FlagSet) {
		fs.BoolVar(&f.pty, "pty", false, "run in a pseudo-terminal (default: plain pipes)")
		f.worktreeFlags(fs)
	})
	return f, rest, err
}

// parseFlags parses into f the flags every command that starts a run takes, and
// those more adds, for command name; --help prints usageText with the flags.
func parseFlags(f *runFlags, name, usageText string, args []string, more func(*flag.FlagSet)) ([]string, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.BoolVar(&f.shell, "shell", false, "take one command line, run with $SHELL -c (default: argv, exec'd directly)")
	fs.StringVar(&f.name, "name", "", "run name (default: the program's name)")
	fs.StringVar(&f.dir, "dir", "", "directory to run in (default: this one; with --host, the home directory there);\n~/ is the home directory of the machine it runs on")
	fs.DurationVar(&f.timeout, "timeout", 0, "overall timeout, e.g. 30m (default: none)")
	fs.Var(&f.noOutput, "no-output-timeout", "end the run after this long without output; 0 turns it off (default: derived from --timeout)")
	fs.DurationVar(&f.grace, "grace", 0, "time between the stop signal and SIGKILL (default 5s)")
	fs.StringVar(&f.stopSignal, "stop-signal", "", "signal that asks the run to stop, by name or number (default SIGTERM)")
	fs.BoolVar(&f.json, "json", false, "write a JSON report to stdout instead of streaming output")
	fs.StringVar(&f.stateDir, "state-dir", "", "state directory (default $CORRAL_STATE_DIR, $XDG_STATE_HOME/corral, ~/.local/state/corral)")
	fs.Var(&f.env, "env", "add KEY=VALUE to the run's environment (repeatable)")
	fs.StringVar(&f.escapePolicy, "escape-policy", "", escapePolicyHelp)
	fs.StringVar(&f.agent, "agent", "", "the agent whose rules tell the run's state (claude, codex, …; none: no detection; default: from the command)")
	fs.StringVar(&f.restart, "restart", "", restartHelp)
	fs.StringVar(&f.backoff, "backoff", "", `with --restart: the delay before a restart, doubled each time up to the second value ("1s..30s"; default 1s..30s; 0: at once)`)
	fs.IntVar(&f.maxRestarts, "max-restarts", -1, "with --restart: restarts allowed in a minute; 0: no limit (default 5)")
	fs.StringVar(&f.ready, "ready", "", `readiness probe, KIND=TARGET: tcp=127.0.0.1:5432, http=http://127.0.0.1:8080/health, exec="pg_isready", log="listening on .*" (checked every second)`)
	fs.Var(&f.dependsOn, "depends-on", `start once this run of the server meets a condition, NAME=CONDITION (or an id for NAME): started, ready, succeeded or ended; NAME alone: started (repeatable)`)
	fs.StringVar(&f.onDepLost, "on-dependency-lost", "", `with --depends-on: restart: end the run and wait again when a dependency met is restarted or no longer started or ready (default: nothing)`)
	if more != nil {
		more(fs)
	}
	err := cli.ParseFlags(fs, args)
	if errors.Is(err, flag.ErrHelp) {
		var b strings.Builder
		fs.SetOutput(&b)
		fs.PrintDefaults()
		fmt.Printf(usageText, b.String())
	}
	if after := cli.FlagsAfterCommand(fs, args, fs.Args()); err == nil && len(after) > 0 {
		fmt.Fprintf(os.Stderr, "corral %s: warning: %s after the command %s passed to it; put Corral's flags "+
			"before the command, or -- before the command to silence this\n", name, strings.Join(after, ", "),
			map[bool]string{true: "is", false: "are"}[len(after) == 1])
	}
	return fs.Args(), err
}

// escapePolicyHelp documents --escape-policy for corral run and corral -- CMD.
const escapePolicyHelp = "a process that leaves the run's session: own (the run's: shown, ended with it; warn is an alias) or fail (end the run, ownership-escape) (default from the config, else own)"

// restartHelp documents --restart.
const restartHelp = `restart policy: no, on-failure (any end but exit 0 and a cancel) or always; backs off 1s doubling to 30s, at most 5 restarts a minute (default no)`

// restartOf reads --restart, --backoff and --max-restarts (-1: not given).
func restartOf(policy, backoff string, most int) (*runs.RestartSpec, error) {
	p, err := runs.ParseRestartPolicy(policy)
	if err != nil {
		return nil, fmt.Errorf("--restart: %w", err)
	}
	if p == runs.RestartNo {
		if backoff != "" || most >= 0 {
			return nil, errors.New("--backoff and --max-restarts need --restart on-failure or always")
		}
		return nil, nil
	}
	rs := runs.DefaultRestart(p)
	if backoff != "" {
		first, longest, err := config.ParseBackoff(backoff)
		if err != nil {
			return nil, fmt.Errorf("--backoff: %w", err)
		}
		rs.Backoff, rs.BackoffMax = first, longest
		if longest == 0 { // "2s": doubling from 2s to the default longest (or 2s, if more)
			rs.BackoffMax = max(first, runs.DefaultRestart(p).BackoffMax)
		}
	}
	if most >= 0 {
		rs.MaxRestarts = most
	}
	return &rs, nil
}

// readyOf reads --ready KIND=TARGET; "" is no probe.
func readyOf(v string) (*config.Probe, error) {
	if v == "" {
		return nil, nil
	}
	kind, target, ok := strings.Cut(v, "=")
	p := config.Probe{Kind: strings.TrimSpace(kind), Target: target}
	if !ok {
		return nil, fmt.Errorf("--ready %q: want KIND=TARGET, like tcp=127.0.0.1:5432", v)
	}
	if err := config.CheckProbe(p); err != nil {
		return nil, fmt.Errorf("--ready: %w", err)
	}
	return &p, nil
}

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
	s = runs.Spec{Name: f.name, PTY: f.pty, Timeout: f.timeout, Grace: f.grace, Env: f.env, Agent: f.agent, Dir: f.dir}
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
	switch {
	case f.worktree:
		s.Worktree = &runs.WorktreeSpec{Branch: f.branch, Base: f.base}
	case f.branch != "" || f.base != "":
		return s, errors.New("--branch and --base need --worktree")
	}
	if s.Restart, err = restartOf(f.restart, f.backoff, f.maxRestarts); err != nil {
		return s, err
	}
	if s.Ready, err = readyOf(f.ready); err != nil {
		return s, err
	}
	for _, v := range f.dependsOn {
		d, err := runs.ParseDependency(v)
		if err != nil {
			return s, fmt.Errorf("--depends-on %q: %w", v, err)
		}
		s.DependsOn = append(s.DependsOn, d)
	}
	switch s.OnDependencyLost = f.onDepLost; {
	case f.onDepLost != "" && len(f.dependsOn) == 0:
		return s, errors.New("--on-dependency-lost needs --depends-on")
	case f.onDepLost != "" && f.onDepLost != runs.DepLostRestart:
		return s, fmt.Errorf("--on-dependency-lost %q: want restart", f.onDepLost)
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
		fmt.Fprintf(os.Stderr, "corral %s: %v (corral %s --help)\n", cmd, err, helpOf)
		return spec, exitUsage, false
	}
	return spec, 0, true
}

// cmdSpawn is corral spawn: corral run's flags, the run started in the server.
func cmdSpawn(args []string) int {
	var f runFlags
	var host string
	rest, err := parseFlags(&f, "spawn", spawnUsage, args, func(fs *flag.FlagSet) {
		fs.BoolVar(&f.pty, "pty", false, "run in a pseudo-terminal (default: plain pipes)")
		fs.StringVar(&host, "host", "", "start it on this [[host]] of the config, over ssh (its server's environment; --dir there)")
		f.worktreeFlags(fs)
	})
	spec, code, ok := specOf("spawn", "spawn", f, rest, err)
	if !ok {
		return code
	}
	return control.Spawn(spec, control.Where{StateDir: f.stateDir, Host: host}, f.json, controlEnv())
}

// cmdParity is corral parity: the same spec as a PTY run and as a pipe run.
func cmdParity(args []string) int {
	var opt parity.Options
	var f runFlags
	rest, err := parseFlags(&f, "parity", parity.Usage(), args,
		func(fs *flag.FlagSet) {
			fs.StringVar(&opt.Input, "input", "", "text written to both runs, then their input ends")
			fs.BoolVar(&opt.Raw, "raw", false, "compare the raw bytes (no normalization)")
		})
	spec, code, ok := specOf("parity", "parity", f, rest, err)
	if !ok {
		return code
	}
	sup, reg, err := runs.Open(config.Default(), f.stateDir, warn)
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
	res.Write(os.Stdout, f.json)
	switch {
	case ctx.Err() != nil:
		return exitUsage // interrupted: the comparison is of two cancelled runs
	case res.Identical:
		return 0
	}
	return 1
}

// exitCode maps the run's end to corral run's exit code. The signal Corral received
// decides only when it is what ended the run: a run that exited, timed out or escaped
// just as a signal came keeps its own code, matching the summary line.
func exitCode(info runs.Info, spawnErr error, got os.Signal) int {
	code := runExitCode(info, spawnErr, got)
	if info.RecordErr != "" && (code == 0 || info.Reason == runs.SpawnError) {
		return exitFailure // Corral could not record the run, so success would be a lie; stderr said why
	}
	return code
}

// runExitCode is the exit code the run's own end gives.
func runExitCode(info runs.Info, spawnErr error, got os.Signal) int {
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

// warn says on stderr what Corral found wrong and went on regardless.
func warn(w string) { fmt.Fprintf(os.Stderr, "corral: %s\n", w) }

func cmdRun(args []string) int {
	f, rest, err := parseRunFlags("run", runUsage, args)
	spec, code, ok := specOf("run", "run", f, rest, err)
	if !ok {
		return code
	}
	if len(spec.DependsOn) > 0 { // runs of the server: waited for there, before this one starts here
		if code, ok := control.AwaitDeps(context.Background(), spec, control.Where{StateDir: f.stateDir}, controlEnv()); !ok {
			return code
		}
		spec.DependsOn = nil
	}
	// Screens (emulated only when read) tell when an agent rings for its human, which
	// pauses the no-output deadline.
	opts := []runs.Option{runs.WithScreens()}
	if spec.Worktree != nil { // the config's [worktree] root and setup, as the server takes them
		user, uerr := config.User()
		if uerr != nil {
			warn(fmt.Sprintf("config not read ([worktree]): %v", uerr))
		}
		opts = append(opts, runs.WithWorktrees(user.Worktree))
	}
	sup, reg, err := runs.Open(config.Default(), f.stateDir, warn, opts...)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral run: %v\n", err)
		return exitFailure
	}
	defer reg.Close()
	reportReconcile(sup)
	res, err := foreground.Run(sup, spec, f.json)
	switch {
	case err != nil:
		fmt.Fprintf(os.Stderr, "corral run: %v\n", err)
		return exitUsage
	case res.PipeClosed && res.Got == nil:
		return exitGotSIGPIPE
	}
	return exitCode(res.Info, res.SpawnErr, res.Got)
}

// reportReconcile reconciles at start, as every Corral process does, in the
// background: the command's own run starts at once, without waiting for orphans to
// end or for a dead instance's leases to expire, and Shutdown finishes what the pass
// stole. It says on stderr what it did to runs other than those it left alone (with
// CR LF: a PTY run may have the terminal in raw mode).
func reportReconcile(sup *runs.Supervisor) {
	sup.ReconcileInBackground(func(ds []runs.Decision, err error) {
		if err != nil {
			fmt.Fprintf(os.Stderr, "corral: reconcile: %v\r\n", err)
		}
		for _, d := range runs.Notable(ds) {
			fmt.Fprintf(os.Stderr, "corral: reconciled %s (%s): %s — %s\r\n", runs.Printable(d.ID), runs.Printable(d.Name),
				d.Decision, runs.Printable(d.Detail))
		}
	})
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
