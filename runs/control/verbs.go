package control

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"corral/runs"
	"corral/runs/api"
	"corral/runs/client"
)

// verbs are the CLI's control verbs, each named by the operation it calls.
var verbs = map[string]verb{
	api.Poll.Name(): {args: 1, flags: func(fs *flag.FlagSet, o *opts) {
		fs.DurationVar(&o.wait, "wait", 0, "wait up to this long for output or the end (max 2m)")
	}, do: poll},
	api.Log.Name(): {args: 1, flags: func(fs *flag.FlagSet, o *opts) {
		fs.IntVar(&o.offset, "offset", 0, "first line (0-based)")
		fs.IntVar(&o.limit, "limit", api.DefaultLogLines, "how many lines")
	}, do: logLines},
	api.Write.Name():     {args: 2, do: write},
	api.SendKeys.Name():  {args: -1, do: sendKeys},
	api.Paste.Name():     {args: -1, do: textVerb(api.Paste)},
	api.Submit.Name():    {args: -1, do: textVerb(api.Submit)},
	api.Kill.Name():      {args: 1, do: refVerb(api.Kill)},
	api.Interrupt.Name(): {args: 1, do: refVerb(api.Interrupt)},
	api.Remove.Name():    {args: 1, do: refVerb(api.Remove)},
	api.Wait.Name(): {args: 1, flags: func(fs *flag.FlagSet, o *opts) {
		fs.DurationVar(&o.wait, "timeout", 0, "give up after this long (exit 124); 0 waits until it ends")
	}, do: wait},
	api.Shutdown.Name(): {args: 0, do: shutdown},
}

func poll(c *client.Client, o *opts, env Env) int {
	p, ok := call(api.Poll, c, api.PollArgs{ID: o.args[0], WaitMS: o.wait.Milliseconds()}, env)
	if !ok {
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

func logLines(c *client.Client, o *opts, env Env) int {
	l, ok := call(api.Log, c, api.LogArgs{ID: o.args[0], Offset: o.offset, Limit: o.limit, Tail: !o.offSet}, env)
	if !ok {
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

func write(c *client.Client, o *opts, env Env) int {
	data := []byte(o.args[1])
	if o.args[1] == "-" {
		var err error
		if data, err = io.ReadAll(io.LimitReader(env.Stdin, api.MaxMessage/2)); err != nil {
			fmt.Fprintf(env.Stderr, "corral write: read stdin: %v\n", err)
			return ExitFailure
		}
	}
	return done(api.Write, c, api.WriteArgs{ID: o.args[0], Data: data}, o, env)
}

func sendKeys(c *client.Client, o *opts, env Env) int {
	return done(api.SendKeys, c, api.KeysArgs{ID: o.args[0], Keys: o.args[1:]}, o, env)
}

// textVerb is paste or submit: a run and the words after it.
func textVerb(op *api.Op[api.TextArgs, api.RunRef]) func(*client.Client, *opts, Env) int {
	return func(c *client.Client, o *opts, env Env) int {
		return done(op, c, api.TextArgs{ID: o.args[0], Text: joinArgs(o.args[1:])}, o, env)
	}
}

// refVerb is a verb that only names its run.
func refVerb(op *api.Op[api.RunRef, api.RunRef]) func(*client.Client, *opts, Env) int {
	return func(c *client.Client, o *opts, env Env) int {
		return done(op, c, api.RunRef{ID: o.args[0]}, o, env)
	}
}

// done makes a call whose only result is the run it acted on.
func done[A any](op *api.Op[A, api.RunRef], c *client.Client, a A, o *opts, env Env) int {
	ref, ok := call(op, c, a, env)
	if !ok {
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

func wait(c *client.Client, o *opts, env Env) int {
	w, err := api.Wait.Call(context.Background(), c, api.WaitArgs{ID: o.args[0], TimeoutMS: o.wait.Milliseconds()})
	var se *api.Error
	if errors.As(err, &se) && se.Code == api.CodeTimeout {
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

func shutdown(c *client.Client, o *opts, env Env) int {
	start := time.Now()
	r, ok := call(api.Shutdown, c, struct{}{}, env)
	if !ok {
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
