// Package control is the CLI of the control verbs (DESIGN §13): corral spawn, poll,
// log, write, send-keys, paste, submit, kill, interrupt, remove, wait and shutdown,
// for scripts and agents that drive runs a human may be watching. Each verb is one
// operation (package api) called on the state dir's server through package client;
// spawn starts the server when none is running. A verb's name is its operation's.
package control

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"corral/runs"
	"corral/runs/api"
	"corral/runs/client"
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

// Usage is the verbs' part of corral --help.
const Usage = `  spawn [run flags] -- CMD...    start a run in the server (started if needed); prints its id
  poll ID [--wait DUR]           output since the last poll (waits up to DUR for some)
  log ID [--offset N] [--limit N]  lines of the kept output (default: the last 200)
  write ID DATA|-                write bytes to the run's stdin or terminal (- reads stdin)
  send-keys ID KEY...            keys by tmux name (C-c, Enter, Up, F5 …) or literal text
  paste ID TEXT                  paste (bracketed when the app asked for it)
  submit ID TEXT                 paste, then Enter
  kill ID                        end the run (manual-cancel, the usual escalation)
  interrupt ID                   Ctrl-C (PTY) or SIGINT to its session (pipe)
  remove ID                      forget an ended run
  wait ID [--timeout DUR]        block until it ends; print its report; exit as corral run
  shutdown                       end every run (supervisor-shutdown) and the server
  (ID: a run id, a unique prefix of one, or a run's name; every verb takes --json and
  --state-dir)
`

// IsVerb reports whether name is a control verb Main handles.
func IsVerb(name string) bool {
	_, ok := verbs[name]
	return ok
}

// verb is one command: how many positional arguments it needs, its own flags, and
// what it does with a connected client.
type verb struct {
	args  int // required positional arguments (after the flags); -1: at least one
	flags func(fs *flag.FlagSet, o *opts)
	do    func(c *client.Client, o *opts, env Env) int
}

// opts are every verb's parsed flags and arguments.
type opts struct {
	json     bool
	stateDir string
	wait     time.Duration
	offset   int
	limit    int
	offSet   bool
	args     []string
}

// Main runs verb with its command-line args.
func Main(name string, args []string, env Env) int {
	v := verbs[name]
	o, err := parse(name, v, args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(env.Stdout, Usage)
		return ExitOK
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral %s: %v\n", name, err)
		return ExitUsage
	}
	c, code := connect(name, o.stateDir, env, false)
	if c == nil {
		return code
	}
	defer c.Close()
	return v.do(c, o, env)
}

func parse(name string, v verb, args []string) (*opts, error) {
	o := &opts{}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&o.json, "json", false, "print JSON")
	fs.StringVar(&o.stateDir, "state-dir", "", "state directory")
	if v.flags != nil {
		v.flags(fs, o)
	}
	// Flags may follow the run id (corral poll ID --wait 5s): parse what precedes the
	// first positional, then the rest again.
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 || len(pos) >= max(v.args, 1) {
			pos = append(pos, fs.Args()...)
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	fs.Visit(func(f *flag.Flag) { o.offSet = o.offSet || f.Name == "offset" })
	switch {
	case v.args >= 0 && len(pos) != v.args:
		return nil, fmt.Errorf("want %d argument(s), got %d (see corral --help)", v.args, len(pos))
	case v.args < 0 && len(pos) < 2:
		return nil, errors.New("want a run id and at least one more argument")
	}
	o.args = pos
	return o, nil
}

// connect reaches the state dir's server, starting one first when start is set.
func connect(name, stateDir string, env Env, start bool) (*client.Client, int) {
	dir, err := env.StateDir(stateDir)
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

// call calls op and reports its failure.
func call[A, R any](op *api.Op[A, R], c *client.Client, a A, env Env) (R, bool) {
	r, err := op.Call(context.Background(), c, a)
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

// Spawn starts spec in the state dir's server (starting the server if needed) and
// prints the new run's id.
func Spawn(spec runs.Spec, stateDir string, asJSON bool, env Env) int {
	c, code := connect(api.Spawn.Name(), stateDir, env, true)
	if c == nil {
		return code
	}
	defer c.Close()
	rep, ok := call(api.Spawn, c, api.Here(spec), env)
	if !ok {
		return ExitFailure
	}
	if asJSON {
		printJSON(env.Stdout, rep)
	} else {
		fmt.Fprintln(env.Stdout, rep.ID)
	}
	if rep.SpawnError != "" {
		fmt.Fprintf(env.Stderr, "corral spawn: %s ended at once: spawn-error: %s\n", rep.ID, rep.SpawnError)
		return ExitFailure
	}
	return ExitOK
}

// joinArgs is the text of verbs that take TEXT: the words after the id, joined by
// spaces as echo does, so an unquoted sentence still works.
func joinArgs(a []string) string { return strings.Join(a, " ") }
