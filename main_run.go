// The commands that start a run here or in the server (run, spawn, parity): their
// flags, the spec they make, and corral run's exit codes.

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"corral/config"
	"corral/runs"
	"corral/runs/cli"
	"corral/runs/cli/control"
	"corral/runs/cli/foreground"
	"corral/runs/cli/parity"
)

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

func (o *optDuration) Get() any { return o.d }

func (o *optDuration) Set(s string) error {
	d, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	o.d, o.set = d, true
	return nil
}

type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

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
