package control

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"corral/runs"
	"corral/runs/server"
)

var verbs = map[string]verb{
	"poll": {args: 1, flags: func(fs *flag.FlagSet, o *opts) {
		fs.DurationVar(&o.wait, "wait", 0, "wait up to this long for output or the end (max 2m)")
	}, do: poll},
	"log": {args: 1, flags: func(fs *flag.FlagSet, o *opts) {
		fs.IntVar(&o.offset, "offset", 0, "first line (0-based)")
		fs.IntVar(&o.limit, "limit", server.DefaultLogLines, "how many lines")
	}, do: logLines},
	"write":     {args: 2, do: write},
	"send-keys": {args: -1, do: textVerb("send-keys")},
	"paste":     {args: -1, do: textVerb("paste")},
	"submit":    {args: -1, do: textVerb("submit")},
	"kill":      {args: 1, do: refVerb("kill")},
	"interrupt": {args: 1, do: refVerb("interrupt")},
	"remove":    {args: 1, do: refVerb("remove")},
	"wait": {args: 1, flags: func(fs *flag.FlagSet, o *opts) {
		fs.DurationVar(&o.wait, "timeout", 0, "give up after this long (exit 124); 0 waits until it ends")
	}, do: wait},
	"shutdown": {args: 0, do: shutdown},
}

func poll(c *server.Client, o *opts, env Env) int {
	var p server.PollReply
	if !call(c, "poll", server.PollArgs{ID: o.args[0], WaitMS: o.wait.Milliseconds()}, &p, env) {
		return ExitFailure
	}
	if o.json {
		printJSON(env.Stdout, struct {
			ID      string      `json:"id"`
			Output  string      `json:"output"`
			Dropped int64       `json:"dropped"`
			Ended   bool        `json:"ended"`
			State   runs.State  `json:"state"`
			Reason  runs.Reason `json:"reason,omitempty"`
			Exit    *int        `json:"exit_code"`
		}{p.Run.ID, string(p.Output), p.Dropped, p.Ended, p.Run.State, p.Run.Reason, p.Run.ExitCode})
		return ExitOK
	}
	if p.Dropped > 0 {
		fmt.Fprintf(env.Stderr, "corral poll: %d bytes since the last poll were dropped by the output cap\n", p.Dropped)
	}
	env.Stdout.Write(p.Output)
	if p.Ended {
		fmt.Fprintf(env.Stderr, "corral: %s\n", runs.Summary(p.Run))
	}
	return ExitOK
}

func logLines(c *server.Client, o *opts, env Env) int {
	var l server.LogReply
	args := server.LogArgs{ID: o.args[0], Offset: o.offset, Limit: o.limit, Tail: !o.offSet}
	if !call(c, "log", args, &l, env) {
		return ExitFailure
	}
	if o.json {
		printJSON(env.Stdout, l)
		return ExitOK
	}
	for _, line := range l.Lines {
		fmt.Fprintln(env.Stdout, line)
	}
	if end := l.Offset + len(l.Lines); end < l.TotalLines {
		fmt.Fprintf(env.Stderr, "corral log: lines %d–%d of %d; --offset %d for more\n", l.Offset, end-1, l.TotalLines, end)
	}
	return ExitOK
}

func write(c *server.Client, o *opts, env Env) int {
	data := []byte(o.args[1])
	if o.args[1] == "-" {
		var err error
		if data, err = io.ReadAll(io.LimitReader(env.Stdin, server.MaxMessage/2)); err != nil {
			fmt.Fprintf(env.Stderr, "corral write: read stdin: %v\n", err)
			return ExitFailure
		}
	}
	return done(c, "write", server.WriteArgs{ID: o.args[0], Data: data}, o, env)
}

// textVerb is send-keys, paste or submit: a run and the words after it.
func textVerb(name string) func(*server.Client, *opts, Env) int {
	return func(c *server.Client, o *opts, env Env) int {
		id, rest := o.args[0], o.args[1:]
		if name == "send-keys" {
			return done(c, name, server.KeysArgs{ID: id, Keys: rest}, o, env)
		}
		return done(c, name, server.TextArgs{ID: id, Text: joinArgs(rest)}, o, env)
	}
}

// refVerb is a verb that only names its run.
func refVerb(name string) func(*server.Client, *opts, Env) int {
	return func(c *server.Client, o *opts, env Env) int {
		return done(c, name, server.RunRef{ID: o.args[0]}, o, env)
	}
}

// done makes a call whose only result is the run it acted on.
func done(c *server.Client, name string, args any, o *opts, env Env) int {
	var ref server.RunRef
	if !call(c, name, args, &ref, env) {
		return ExitFailure
	}
	if o.json {
		printJSON(env.Stdout, struct {
			ID string `json:"id"`
			OK bool   `json:"ok"`
		}{ref.ID, true})
	}
	return ExitOK
}

func wait(c *server.Client, o *opts, env Env) int {
	var w server.WaitReply
	err := c.Call("wait", server.WaitArgs{ID: o.args[0], TimeoutMS: o.wait.Milliseconds()}, &w)
	var se *server.Error
	if errors.As(err, &se) && se.Code == server.CodeTimeout {
		fmt.Fprintf(env.Stderr, "corral wait: %v\n", err)
		return ExitTimeout
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral wait: %v\n", err)
		return ExitFailure
	}
	if o.json {
		printJSON(env.Stdout, w.Report)
	}
	fmt.Fprintf(env.Stderr, "corral: %s\n", runs.Summary(w.Run))
	return env.ExitCode(w.Run)
}

func shutdown(c *server.Client, o *opts, env Env) int {
	var r struct {
		Ended int `json:"ended"`
	}
	start := time.Now()
	if !call(c, "shutdown", nil, &r, env) {
		return ExitFailure
	}
	if o.json {
		printJSON(env.Stdout, r)
	} else {
		fmt.Fprintf(env.Stderr, "corral: server shut down; %d live run(s) ended in %s\n", r.Ended,
			time.Since(start).Round(time.Millisecond))
	}
	return ExitOK
}
