// Package control is the CLI of the control verbs: corral spawn, poll,
// log, write, send-keys, paste, submit, kill, interrupt, remove, wait and shutdown,
// for scripts and agents that drive runs a human may be watching. Each verb is one
// operation (package api) called on the state dir's server through package client;
// spawn starts the server when none is running. A verb's name is its operation's;
// each is declared once, in verbs, and joins corral's command table through Commands.
// The commands that read the config's [[host]] entries and runs live here too: ls
// (which hosts it lists: Ls), check (Check), up, down and graph.
package control

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"corral/config"
	"corral/runs"
	"corral/runs/api"
	"corral/runs/cli"
	"corral/runs/client"
	"corral/runs/keeper"
)

// Env is what the verbs need of the CLI around them.
type Env struct {
	// StateDir resolves the --state-dir flag (empty: the default) to the state dir.
	StateDir func(flag string) (string, error)
	// Start starts a server for the state dir (spawn only).
	Start func(dir string) error
	// ExitCode is corral run's exit code for an ended run (wait).
	ExitCode       func(runs.Info) int
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// RunOutput is where log, poll and screen print a run's output (nil: Stdout): at
	// a terminal, with its control sequences made visible unless raw.
	RunOutput func(raw bool) io.Writer
}

// Exit codes of the verbs other than wait (whose code is corral run's).
const (
	ExitOK      = 0
	ExitFailure = 1 // no server, no such run, or the server refused
	ExitUsage   = 2
	ExitTimeout = 124 // wait --timeout passed first
)

// startLimit bounds how long spawn waits for a server it started to listen.
const startLimit = 10 * time.Second

// VerbsNote is what corral --help says below the verbs: what ID is, and the flags
// and arguments every verb takes.
const VerbsNote = "  (ID: a run id, a unique prefix of one, or a run's name; every verb takes --json,\n" +
	"  --state-dir and --host NAME (a [[host]] of the config: its server, over ssh); flags go\n" +
	"  anywhere before --, and every word after -- is an argument: corral submit ID -- --literal text)\n"

// Commands are the verbs as commands of corral's table, in corral --help's order;
// env is called when one runs.
func Commands(env func() Env) cli.Table {
	t := make(cli.Table, len(verbs))
	for i, v := range verbs {
		t[i] = cli.Command{Name: v.name, Synopsis: v.synopsis, Summary: v.summary, Part: cli.Verb,
			Run: func(args []string) int { return run(v, args, env()) }}
	}
	return t
}

// verb is one command: its arguments, its own flags, and what it does with a
// connected client (or, local, without one).
type verb struct {
	name     string // its operation's, as the command's
	synopsis string // "ID [--wait DUR]"
	summary  string // one line for corral --help
	args     int    // required positional arguments; argsIDAndMore, argsOptional
	flags    func(fs *flag.FlagSet, o *opts)
	do       func(c *client.Client, o *opts, env Env) int
	local    bool // runs without a server (do gets a nil client)
	start    bool // starts a server when none runs (restore: after a reboot none does)
	// noServer, when set, is the verb's answer when no server is running: what it
	// asks for is already so (shutdown).
	noServer func(o *opts, env Env) int
}

// A verb's arguments besides an exact count.
const (
	argsIDAndMore = -1 // a run id and at least one more
	argsOptional  = -2 // none or one
	argsAny       = -3 // any number
)

// opts are every verb's parsed flags and arguments.
type opts struct {
	json     bool
	stateDir string
	host     string // --host: a [[host]] of the config, or local
	wait     time.Duration
	offset   int
	limit    int
	offSet   bool
	escapes  bool
	raw      bool // --raw: a run's output printed with its control sequences
	history  bool
	svg, png bool   // screen: a picture
	out      string // screen: -o FILE
	theme    string // screen: the picture's colours
	until    string
	ready    time.Duration
	readySet bool // --ready-timeout was given
	agent    string
	hooks    string
	// diff and finish
	stat, color         bool
	commit, into        string
	merge, noMerge      bool
	deleteBranch, force bool
	dryRun, fresh       bool            // restore
	timeout             time.Duration   // --timeout: how long to wait for the server's answer
	ctx                 context.Context // the verb's calls: within --timeout when given
	args                []string
}

// run runs verb v with its command-line args.
func run(v verb, args []string, env Env) int {
	name := v.name
	o, err := parse(name, v, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(env.Stdout, help(v))
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral %s: %v\n", name, err)
		return ExitUsage
	}
	o.ctx = context.Background()
	if o.timeout > 0 {
		var cancel context.CancelFunc
		o.ctx, cancel = client.WithLimit(o.ctx, o.timeout)
		defer cancel()
	}
	if v.local {
		return v.do(nil, o, env)
	}
	var none func() int
	if v.noServer != nil {
		none = func() int { return v.noServer(o, env) }
	}
	c, code := connect(o.ctx, name, Where{StateDir: o.stateDir, Host: o.host}, env, v.start, none)
	if c == nil {
		return code
	}
	defer c.Close()
	return v.do(c, o, env)
}

// parse reads a verb's flags, which may come anywhere before "--", and its
// arguments; every word after "--" is an argument, so text that looks like a flag
// can be typed (corral submit ID -- --force).
func parse(name string, v verb, args []string) (*opts, error) {
	o := &opts{}
	fs := verbFlags(name, v, o)
	before, after := args, []string(nil)
	if i := slices.Index(args, "--"); i >= 0 {
		before, after = args[:i], args[i+1:]
	}
	var pos []string
	for {
		if err := cli.ParseFlags(fs, before); err != nil {
			return nil, flagError(name, v, err)
		}
		if fs.NArg() == 0 {
			break
		}
		pos, before = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
	fs.Visit(func(f *flag.Flag) {
		o.offSet = o.offSet || f.Name == "offset"
		o.readySet = o.readySet || f.Name == "ready-timeout"
	})
	pos = append(pos, after...)
	switch {
	case v.args >= 0 && len(pos) != v.args:
		return nil, fmt.Errorf("want %d argument(s), got %d (corral %s --help)", v.args, len(pos), name)
	case v.args == argsIDAndMore && len(pos) < 2:
		return nil, fmt.Errorf("want a run id and at least one more argument (corral %s --help)", name)
	case v.args == argsOptional && len(pos) > 1:
		return nil, fmt.Errorf("want at most one argument, got %d (corral %s --help)", len(pos), name)
	}
	o.args = pos
	return o, nil
}

// verbFlags are verb's flags, parsed into o.
func verbFlags(name string, v verb, o *opts) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.BoolVar(&o.json, "json", false, "print JSON")
	fs.StringVar(&o.stateDir, "state-dir", "", "state directory (with --host: the one there)")
	if !v.local { // hook and agents are about this machine
		fs.StringVar(&o.host, "host", "", "the server of this [[host]] of the config, over ssh (local: this machine's)")
	}
	if v.flags != nil {
		v.flags(fs, o)
	}
	if fs.Lookup("timeout") == nil { // wait's --timeout is its own, and bounds its call
		fs.DurationVar(&o.timeout, "timeout", 0, "how long to wait for the server's answer (default: the verb's own, 30s for most);\n"+
			"with --host it bounds reaching the host too (default: "+client.DialLimit.String()+" for ssh to connect and corral there to greet)")
	}
	return fs
}

// help is a verb's --help (and corral help VERB): the command's (its synopsis, what
// it does, its flags), and where text that looks like a flag goes.
func help(v verb) string {
	h := cli.Command{Name: v.name, Synopsis: v.synopsis, Summary: v.summary}.Help(verbFlags(v.name, v, &opts{}))
	if v.args == argsIDAndMore {
		h += fmt.Sprintf("\nFlags go anywhere before --; every word after -- is text: corral %s ID -- --literal\n", v.name)
	}
	return h
}

// flagError is a flag mistake in one line, with where to look; a verb that types
// text says where text that looks like a flag goes.
func flagError(name string, v verb, err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return err
	}
	msg := err.Error()
	if v.args == argsIDAndMore && strings.HasPrefix(msg, "unknown flag") {
		msg += "; text that starts with - goes after --"
	}
	return fmt.Errorf("%s (corral %s --help)", msg, name)
}

// Where is the server a verb talks to: the state dir's here, or with Host the one
// on that [[host]] of the config (its state dir there, StateDir if given).
type Where struct {
	StateDir string
	Host     string // "" or config.LocalHost: this machine's
}

// remote is the host w names, when it is another machine's; ok false (and the
// error said) when no host goes by that name.
func (w Where) remote(name string, env Env) (h client.Host, ok bool) {
	if w.Host == "" || w.Host == config.LocalHost {
		return client.Host{}, true
	}
	hosts, err := UserHosts()
	if err == nil {
		h, err = FindHost(hosts, w.Host)
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral %s: %v\n", name, err)
		return h, false
	}
	if w.StateDir != "" {
		h.StateDir = w.StateDir
	}
	return h, true
}

// connect reaches the server w names, starting one first when start is set; when
// none runs, noServer (if set) gives the verb's exit code. Another host is dialled
// within ctx's deadline (--timeout), or client.DialLimit.
func connect(ctx context.Context, name string, w Where, env Env, start bool, noServer func() int) (*client.Client, int) {
	h, ok := w.remote(name, env)
	if !ok {
		return nil, ExitUsage
	}
	if h.Remote() {
		c, err := h.DialContext(ctx, start)
		if errors.Is(err, client.ErrNoServer) && noServer != nil {
			return nil, noServer()
		}
		if err != nil {
			fmt.Fprintf(env.Stderr, "corral %s: %v\n", name, err)
			return nil, ExitFailure
		}
		return c, ExitOK
	}
	dir, err := env.StateDir(w.StateDir)
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral %s: %v\n", name, err)
		return nil, ExitFailure
	}
	var c *client.Client
	if start {
		c, err = client.Connect(dir, func() error { return env.Start(dir) }, startLimit)
	} else {
		c, err = client.Dial(dir)
	}
	// A keeper that lives is starting a server, or cannot: wait for the one it starts
	// (it restarts a server within moments), unless it says none comes up. (Connect
	// has waited already.)
	var kd *client.KeeperDown
	for deadline := time.Now().Add(startLimit); !start && errors.As(err, &kd) && kd.Failures < keeper.FailLimit && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond)
		c, err = client.Dial(dir)
	}
	if errors.As(err, &kd) {
		fmt.Fprintf(env.Stderr, "corral %s: %v (%s); the runs it keeps go on\n", name, err, dir)
		return nil, ExitFailure
	}
	if errors.Is(err, client.ErrNoServer) && noServer != nil {
		return nil, noServer()
	}
	if errors.Is(err, client.ErrNoServer) {
		fmt.Fprintf(env.Stderr, "corral %s: %v (%s): corral spawn, corral or corral server starts one\n", name, err, dir)
		return nil, ExitFailure
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral %s: %v\n", name, err)
		return nil, ExitFailure
	}
	return c, ExitOK
}

// call calls op within ctx and reports its failure.
func call[A, R any](ctx context.Context, op *api.Op[A, R], c *client.Client, a A, env Env) (R, bool) {
	r, err := op.Call(ctx, c, a)
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral %s: %v\n", op.Name(), err)
		return r, false
	}
	return r, true
}

func printJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(v)
}

// Spawn starts spec in the server w names (starting it if needed) and prints the
// new run's id. A run spawned here starts from this directory and environment; one
// on another host in its home directory (or --dir there), with its server's
// environment (this machine's mean nothing there).
func Spawn(spec runs.Spec, w Where, asJSON bool, env Env) int {
	c, code := connect(context.Background(), api.Spawn.Name(), w, env, true, nil)
	if c == nil {
		return code
	}
	defer c.Close()
	args := api.There(spec)
	if h, _ := w.remote(api.Spawn.Name(), env); !h.Remote() {
		args = api.Here(spec)
	}
	args.NamedDeps = len(spec.DependsOn) > 0 // --depends-on: runs of the server now
	rep, ok := call(context.Background(), api.Spawn, c, args, env)
	if !ok {
		return ExitFailure
	}
	if asJSON {
		printJSON(env.Stdout, rep)
	} else {
		fmt.Fprintln(env.Stdout, rep.ID)
	}
	if rep.SpawnErr != "" {
		fmt.Fprintf(env.Stderr, "corral spawn: %s ended at once: spawn-error: %s\n", rep.ID, rep.SpawnErr)
		return ExitFailure
	}
	return ExitOK
}

// joinArgs is the text of verbs that take TEXT: the words after the id, joined by
// spaces as echo does, so an unquoted sentence still works.
func joinArgs(a []string) string { return strings.Join(a, " ") }
