package control

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/term"

	"corral/config"
	"corral/demo/export"
	"corral/ptyhost/screen/grid"
	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/api"
	"corral/runs/client"
	"corral/runs/workspace"
)

// verbs are the CLI's control verbs, each named by the operation it calls (agents,
// which reads the rule files here, by its own name), in corral --help's order.
var verbs = []verb{
	{name: api.Poll.Name(), synopsis: "ID [--wait DUR] [--raw]", summary: "output since the last poll (waits up to DUR for some)",
		args: 1, do: poll, flags: func(fs *flag.FlagSet, o *opts) {
			fs.DurationVar(&o.wait, "wait", 0, "wait up to this long for output or the end (max 2m)")
			rawFlag(fs, o)
		}},
	{name: api.Log.Name(), synopsis: "ID [--offset N] [--limit N] [--raw]", summary: "lines of the kept output (default: the last 200)",
		args: 1, do: logLines, flags: func(fs *flag.FlagSet, o *opts) {
			fs.IntVar(&o.offset, "offset", 0, "first line (0-based)")
			fs.IntVar(&o.limit, "limit", api.DefaultLogLines, "how many lines")
			rawFlag(fs, o)
		}},
	{name: api.Screen.Name(), synopsis: "ID [-e] [--history] [--raw] [--svg|--png [-o FILE]]",
		summary: "the run's screen as text (tmux capture-pane -p; -e keeps colours), or a picture of it",
		args:    1, do: screen, flags: func(fs *flag.FlagSet, o *opts) {
			fs.BoolVar(&o.escapes, "e", false, "keep attributes as SGR escapes")
			fs.BoolVar(&o.history, "history", false, "the lines that scrolled off the screen first (capture-pane -S -)")
			rawFlag(fs, o)
			fs.BoolVar(&o.svg, "svg", false, "a picture of the screen as SVG, drawn as its pane shows it (to stdout, or -o)")
			fs.BoolVar(&o.png, "png", false, "a picture of the screen as PNG (to stdout, or -o)")
			fs.StringVar(&o.out, "o", "", "with --svg or --png: the file to write")
			fs.StringVar(&o.theme, "theme", "", "with --svg or --png: the colours (corral export --help lists them)")
		}},
	{name: api.Write.Name(), synopsis: "ID DATA|-", summary: "write bytes to the run's stdin or terminal (- reads stdin)", args: 2, do: write},
	{name: api.SendKeys.Name(), synopsis: "ID KEY...", summary: "keys by tmux name (C-c, Enter, Up, F5 …) or literal text", args: argsIDAndMore, do: sendKeys},
	{name: api.Paste.Name(), synopsis: "ID TEXT", summary: "paste (bracketed when the app asked for it)", args: argsIDAndMore, do: paste},
	{name: api.Submit.Name(), synopsis: "ID TEXT [--ready-timeout DUR]",
		summary: "paste, then Enter, once the run is ready (its agent idle, or its output quiet); an agent's submit is checked",
		args:    argsIDAndMore, do: submit,
		flags: func(fs *flag.FlagSet, o *opts) {
			fs.DurationVar(&o.ready, "ready-timeout", 0, fmt.Sprintf(
				"wait up to this long for the run to be ready, then exit 124 (default: up to %s, then fail)", api.SubmitReadyDefault))
		}},
	{name: api.Kill.Name(), synopsis: "ID", summary: "end the run (manual-cancel, the usual escalation)", args: 1, do: refVerb(api.Kill)},
	{name: api.Interrupt.Name(), synopsis: "ID", summary: "Ctrl-C (PTY) or SIGINT to its session (pipe)", args: 1, do: refVerb(api.Interrupt)},
	{name: api.Pause.Name(), synopsis: "ID", summary: "stop the run where it is (its cgroup frozen, or SIGSTOP); its deadlines wait", args: 1, do: refVerb(api.Pause)},
	{name: api.Resume.Name(), synopsis: "ID", summary: "let a paused run go on", args: 1, do: refVerb(api.Resume)},
	{name: api.Remove.Name(), synopsis: "ID", summary: "forget an ended run", args: 1, do: refVerb(api.Remove)},
	{name: api.Info.Name(), synopsis: "ID", summary: "the run as the server knows it, as JSON (state, pid, paused, agent, lease …)", args: 1, do: info},
	{name: api.Wait.Name(), synopsis: "ID [--until STATES|CONDITION] [--timeout DUR]",
		summary: "block until it ends (exit as corral run), its agent is in a state (waiting,idle), or it meets a condition (started, ready, succeeded, ended)",
		args:    1, do: wait, flags: func(fs *flag.FlagSet, o *opts) {
			fs.DurationVar(&o.wait, "timeout", 0, "give up after this long (exit 124); 0 waits until it happens")
			fs.StringVar(&o.until, "until", "", "agent states to wait for, comma-separated: working, waiting, idle;\n"+
				"or one condition, as a dependent waits for it: started, ready, succeeded, ended\n(exit 0 when met, 1 when it never can be)")
		}},
	{name: api.Restart.Name(), synopsis: "ID", summary: "start a service's next attempt now, its restart budget refilled (an ended run: again, as a new run; one waiting for its dependencies: left waiting; prints its id)",
		args: 1, do: restartVerb},
	{name: api.Diff.Name(), synopsis: "ID [--stat] [--color]",
		summary: "what a worktree run changed against its base (commits, staged, unstaged, untracked), as git diff prints it",
		args:    1, do: diff, flags: func(fs *flag.FlagSet, o *opts) {
			fs.BoolVar(&o.stat, "stat", false, "git's --stat summary instead of the patch")
			fs.BoolVar(&o.color, "color", false, "git's colours (--color=always)")
		}},
	{name: api.Finish.Name(), synopsis: "ID [--commit MSG] [--merge | --no-merge] [--into BRANCH] [--delete-branch] [--force]",
		summary: "end a worktree run (if live), commit, merge, remove its worktree; refuses, changing nothing, what would lose work",
		args:    1, do: finish, flags: finishFlags},
	{name: api.Explain.Name(), synopsis: "ID", summary: "its agent's state, the rule that decided it and the screen it read",
		args: 1, do: explain},
	{name: verbAgents, synopsis: "[--print-hooks AGENT]", summary: "the agents whose state Corral follows, and their rules",
		args: 0, do: agents, local: true, flags: func(fs *flag.FlagSet, o *opts) {
			fs.StringVar(&o.hooks, "print-hooks", "", "print the settings that make AGENT report through corral hook")
		}},
	{name: api.Hook.Name(), synopsis: "[--run ID] [PAYLOAD]",
		summary: "report an agent hook's JSON (stdin or PAYLOAD) for the run in $CORRAL_RUN_ID",
		args:    argsOptional, do: hook, local: true, flags: func(fs *flag.FlagSet, o *opts) {
			fs.StringVar(&o.agent, "run", "", "the run (default: $CORRAL_RUN_ID)")
		}},
	{name: api.Restore.Name(), synopsis: "[--dry-run] [--fresh] [ID...]",
		summary: "after a reboot, start the lost agent runs again, each resuming its conversation",
		args:    argsAny, do: restore, start: true, flags: func(fs *flag.FlagSet, o *opts) {
			fs.BoolVar(&o.dryRun, "dry-run", false, "say what would be started, start nothing")
			fs.BoolVar(&o.fresh, "fresh", false, "start a lost agent run that recorded no conversation id as a new conversation")
		}},
	{name: api.Shutdown.Name(), synopsis: "", summary: "end every run (supervisor-shutdown) and the server; none running is success",
		args: 0, do: shutdown, noServer: alreadyShutDown},
}

// verbAgents reads the rule files here: no server answers it.
const verbAgents = "agents"

// rawFlag is --raw of the verbs that print a run's output.
func rawFlag(fs *flag.FlagSet, o *opts) {
	fs.BoolVar(&o.raw, "raw", false, "at a terminal, print the run's control sequences as it wrote them (titles, clipboard\n"+
		"and other strings still dropped). The risk: a run that printed a terminal query (ESC[6n,\n"+
		"device attributes ESC[c, ENQ) has the terminal's answer typed into your shell as if you\n"+
		"typed it. Without it they are shown as cat -v does (^[[6n, ^E), colours kept; piped or\n"+
		"redirected output is the bytes as written either way")
}

// runOutput is where a verb prints a run's output: env.RunOutput's writer, or
// stdout as it is.
func runOutput(env Env, o *opts) io.Writer {
	if env.RunOutput == nil {
		return env.Stdout
	}
	return env.RunOutput(o.raw)
}

// flush flushes w if it holds the end of what was written (a filter's).
func flush(w io.Writer) {
	if f, ok := w.(interface{ Flush() error }); ok {
		f.Flush()
	}
}

func info(c *client.Client, o *opts, env Env) int {
	r, ok := call(o.ctx, api.Info, c, api.RunRef{ID: o.args[0]}, env)
	if !ok {
		return ExitFailure
	}
	printJSON(env.Stdout, r)
	return ExitOK
}

func poll(c *client.Client, o *opts, env Env) int {
	p, ok := call(o.ctx, api.Poll, c, api.PollArgs{ID: o.args[0], WaitMS: o.wait.Milliseconds()}, env)
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
			agentFields
			// Its worktree and its changes against the base when last counted.
			Worktree *workspace.Worktree `json:"worktree,omitempty"`
			Diff     *workspace.Stat     `json:"diff,omitempty"`
			SetupErr string              `json:"setup_error,omitempty"`
			// What it waits for (no process yet), or why a dependency ended it.
			WaitingFor    []runs.Dependency `json:"waiting_for,omitempty"`
			DependencyErr string            `json:"dependency_error,omitempty"`
		}{p.Run.ID, string(p.Output), p.Dropped, p.Ended, p.Run.State, p.Run.Reason, p.Run.ExitCode, agentOf(p.Run),
			p.Run.Worktree, p.Run.Diff, p.Run.SetupErr, p.Run.WaitingFor, p.Run.DependencyErr})
		return ExitOK
	}
	if p.Dropped > 0 {
		fmt.Fprintf(env.Stderr, "corral poll: %d bytes since the last poll were dropped by the output cap\n", p.Dropped)
	}
	out := runOutput(env, o)
	out.Write(p.Output)
	flush(out)
	if p.Ended {
		fmt.Fprintf(env.Stderr, "corral: %s\n", runs.Summary(p.Run))
	}
	return ExitOK
}

// agentFields are a run's agent state as the verbs' JSON carries it.
type agentFields struct {
	Agent           string           `json:"agent,omitempty"`
	AgentState      agentstate.State `json:"agent_state"`
	AgentStateSince time.Time        `json:"agent_state_since,omitzero"`
	AgentRule       string           `json:"agent_rule,omitempty"`
	AgentBy         string           `json:"agent_by,omitempty"`   // how the agent was recognised
	SessionID       string           `json:"session_id,omitempty"` // its conversation id (restore resumes it)
	RestoredFrom    string           `json:"restored_from,omitempty"`
}

func agentOf(i runs.Info) agentFields {
	return agentFields{i.Agent, i.AgentState, i.AgentStateSince, i.AgentRule, i.AgentBy, i.SessionID, i.RestoredFrom}
}

func logLines(c *client.Client, o *opts, env Env) int {
	l, ok := call(o.ctx, api.Log, c, api.LogArgs{ID: o.args[0], Offset: o.offset, Limit: o.limit, Tail: !o.offSet}, env)
	if !ok {
		return ExitFailure
	}
	if o.json {
		printJSON(env.Stdout, l)
		return ExitOK
	}
	out := runOutput(env, o)
	for _, line := range l.Lines {
		fmt.Fprintln(out, line)
	}
	flush(out)
	if end := l.Offset + len(l.Lines); end < l.TotalLines {
		fmt.Fprintf(env.Stderr, "corral log: lines %d–%d of %d; --offset %d for more\n", l.Offset, end-1, l.TotalLines, end)
	}
	return ExitOK
}

func screen(c *client.Client, o *opts, env Env) int {
	if o.svg || o.png || o.out != "" {
		return screenPicture(c, o, env)
	}
	s, err := api.ScreenAll(o.ctx, c, api.ScreenArgs{ID: o.args[0], Escapes: o.escapes, History: o.history})
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral %s: %v\n", api.Screen.Name(), err)
		return ExitFailure
	}
	if o.json {
		printJSON(env.Stdout, s)
		return ExitOK
	}
	out := runOutput(env, o)
	for _, l := range s.Lines {
		fmt.Fprintln(out, l)
	}
	flush(out)
	return ExitOK
}

// screenPicture is screen --svg or --png: the run's screen (its capture with escapes,
// the cells Render drew) as a picture, to -o FILE or stdout (never a terminal).
func screenPicture(c *client.Client, o *opts, env Env) int {
	name := api.Screen.Name()
	format := ".svg"
	switch {
	case o.svg == o.png:
		fmt.Fprintf(env.Stderr, "corral %s: give one of --svg and --png (-o FILE names the file)\n", name)
		return ExitUsage
	case o.png:
		format = ".png"
	}
	if o.out != "" && !strings.EqualFold(filepath.Ext(o.out), format) {
		fmt.Fprintf(env.Stderr, "corral %s: -o %s: want a %s file for --%s\n", name, o.out, format, format[1:])
		return ExitUsage
	}
	if f, ok := env.Stdout.(*os.File); ok && o.out == "" && term.IsTerminal(int(f.Fd())) {
		fmt.Fprintf(env.Stderr, "corral %s: a picture is not for a terminal: -o FILE%s, or redirect stdout\n", name, format)
		return ExitUsage
	}
	s, err := api.ScreenAll(o.ctx, c, api.ScreenArgs{ID: o.args[0], Escapes: true})
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral %s: %v\n", name, err)
		return ExitFailure
	}
	g := grid.Parse(s.Lines, s.Cols, s.Rows, s.CursorX, s.CursorY, s.CursorVisible)
	if o.out != "" {
		err = export.Screen(g, o.out, o.theme, "")
	} else {
		var data []byte
		if data, err = export.Picture(g, format, o.theme, ""); err == nil {
			_, err = env.Stdout.Write(data)
		}
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral %s: %v\n", name, err)
		return ExitFailure
	}
	if o.out != "" {
		fmt.Fprintf(env.Stderr, "corral %s: wrote %s\n", name, o.out)
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

func paste(c *client.Client, o *opts, env Env) int {
	return done(api.Paste, c, api.TextArgs{ID: o.args[0], Text: joinArgs(o.args[1:])}, o, env)
}

// submit waits for the run to be ready, submits and, for an agent, checks it took
// (the server does: runs.SubmitReady). It never types at once: without
// --ready-timeout the wait is bounded by api.SubmitReadyDefault. Not ready within
// --ready-timeout exits 124; within the default bound, or not taken, 1. It says
// what made the run ready.
func submit(c *client.Client, o *opts, env Env) int {
	if o.readySet && o.ready <= 0 {
		fmt.Fprintf(env.Stderr, "corral submit: --ready-timeout must be more than 0 (a submit always waits for the run to be ready; corral paste and send-keys type at once)\n")
		return ExitUsage
	}
	args := api.TextArgs{ID: o.args[0], Text: joinArgs(o.args[1:]), ReadyTimeoutMS: o.ready.Milliseconds(),
		ReadyDefault: !o.readySet}
	rep, err := api.Submit.Call(o.ctx, c, args)
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral submit: %v\n", err)
		if isCode(err, api.CodeTimeout) {
			return ExitTimeout
		}
		return ExitFailure
	}
	if o.json {
		printJSON(env.Stdout, struct {
			api.SubmitReply
			OK bool `json:"ok"`
		}{rep, true})
		return ExitOK
	}
	fmt.Fprintf(env.Stdout, "ready: %s (after %s)\n", rep.Ready, (time.Duration(rep.WaitedMS) * time.Millisecond).String())
	if rep.Resent {
		fmt.Fprintf(env.Stderr, "corral submit: the first Enter did not take; sent again, and it did (%s)\n", rep.Took)
	}
	return ExitOK
}

// refVerb is a verb that only names its run.
func refVerb(op *api.Op[api.RunRef, api.RunRef]) func(*client.Client, *opts, Env) int {
	return func(c *client.Client, o *opts, env Env) int {
		return done(op, c, api.RunRef{ID: o.args[0]}, o, env)
	}
}

// done makes a call whose only result is the run it acted on.
func done[A any](op *api.Op[A, api.RunRef], c *client.Client, a A, o *opts, env Env) int {
	ref, ok := call(o.ctx, op, c, a, env)
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

func isCode(err error, code string) bool {
	var se *api.Error
	return errors.As(err, &se) && se.Code == code
}

// wait blocks until the run ends, or with --until until its agent is in a state.
// Timed out, --json prints {"id", "timed_out": true} and the run as it is.
func wait(c *client.Client, o *opts, env Env) int {
	cond, err := runs.ParseCondition(strings.TrimSpace(o.until))
	var until []agentstate.State
	if err != nil {
		cond = ""
		if until, err = parseStates(o.until); err != nil {
			fmt.Fprintf(env.Stderr, "corral wait: --until: %v, or one of started, ready, succeeded, ended\n", err)
			return ExitUsage
		}
	}
	w, err := api.Wait.Call(o.ctx, c, api.WaitArgs{ID: o.args[0], TimeoutMS: o.wait.Milliseconds(), Until: until, Condition: cond})
	if isCode(err, api.CodeTimeout) {
		fmt.Fprintf(env.Stderr, "corral wait: %v\n", err)
		if o.json {
			in, _ := api.Info.Call(o.ctx, c, api.RunRef{ID: o.args[0]})
			printJSON(env.Stdout, waitJSON{ID: in.Run.ID, TimedOut: true, State: in.Run.State, agentFields: agentOf(in.Run.Info)})
		}
		return ExitTimeout
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral wait: %v\n", err)
		return ExitFailure
	}
	if cond != "" {
		return waitedCondition(w, cond, o, env)
	}
	if len(until) > 0 {
		return waitedAgent(w, o, env)
	}
	if o.json {
		printJSON(env.Stdout, w.Report)
	}
	fmt.Fprintf(env.Stderr, "corral: %s\n", runs.Summary(w.Run))
	if warning := runs.RecordWarning(w.Run); warning != "" {
		fmt.Fprintf(env.Stderr, "corral: %s\n", warning)
	}
	return env.ExitCode(w.Run)
}

// restartVerb is corral restart: the id of the run that goes on, on stdout.
func restartVerb(c *client.Client, o *opts, env Env) int {
	ref, ok := call(o.ctx, api.Restart, c, api.RunRef{ID: o.args[0]}, env)
	if !ok {
		return ExitFailure
	}
	if o.json {
		printJSON(env.Stdout, ref)
	} else {
		fmt.Fprintln(env.Stdout, ref.ID)
	}
	return ExitOK
}

// waitJSON is wait --until's answer, and any wait's that timed out.
type waitJSON struct {
	ID       string       `json:"id"`
	TimedOut bool         `json:"timed_out"`
	Reached  bool         `json:"reached"`
	State    runs.State   `json:"state"`
	Report   *runs.Report `json:"report,omitempty"` // when the run ended first
	agentFields
}

// printWaited prints a wait --until's answer as JSON: the run's report too when it
// ended without getting there.
func printWaited(w api.WaitReply, env Env) {
	j := waitJSON{ID: w.Run.ID, Reached: w.Reached, State: w.Run.State, agentFields: agentOf(w.Run)}
	if !w.Reached {
		j.Report = &w.Report
	}
	printJSON(env.Stdout, j)
}

// waitedAgent reports wait --until: 0 when the state was reached, 1 when the run
// ended first.
func waitedAgent(w api.WaitReply, o *opts, env Env) int {
	if o.json {
		printWaited(w, env)
	}
	if !w.Reached {
		fmt.Fprintf(env.Stderr, "corral wait: ended before its agent got there: %s\n", runs.Summary(w.Run))
		return ExitFailure
	}
	if !o.json {
		fmt.Fprintf(env.Stdout, "%s %s since %s (%s)\n", w.Run.ID, w.Run.AgentState,
			w.Run.AgentStateSince.Format(time.TimeOnly), w.Run.AgentRule)
	}
	return ExitOK
}

// waitedCondition reports wait --until CONDITION: 0 when the run met it, 1 when it
// ended without (it never can).
func waitedCondition(w api.WaitReply, cond runs.Condition, o *opts, env Env) int {
	if o.json {
		printWaited(w, env)
	}
	if !w.Reached {
		fmt.Fprintf(env.Stderr, "corral wait: %s can never meet %q: %s\n", w.Run.Name, cond, runs.Summary(w.Run))
		return ExitFailure
	}
	if !o.json {
		fmt.Fprintf(env.Stdout, "%s %s\n", w.Run.ID, cond)
	}
	return ExitOK
}

// parseStates reads "waiting,idle".
func parseStates(list string) ([]agentstate.State, error) {
	var out []agentstate.State
	for _, name := range strings.Split(list, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		s, err := agentstate.ParseState(name)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// alreadyShutDown is shutdown's answer when no server runs: nothing to end, success.
func alreadyShutDown(o *opts, env Env) int {
	if o.json {
		printJSON(env.Stdout, api.ShutdownReply{})
	} else {
		fmt.Fprintln(env.Stderr, "corral: no server is running for this state dir; nothing to shut down")
	}
	return ExitOK
}

func shutdown(c *client.Client, o *opts, env Env) int {
	start := time.Now()
	r, ok := call(o.ctx, api.Shutdown, c, struct{}{}, env)
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

// restore starts the lost runs again and says, one line each, what became of them:
// restored as a new run, or why not. A run named that was refused fails the verb.
func restore(c *client.Client, o *opts, env Env) int {
	var base []string
	if o.host == "" || o.host == config.LocalHost { // another host's runs take its server's environment
		base = os.Environ()
	}
	rep, ok := call(o.ctx, api.Restore, c, api.RestoreArgs{IDs: o.args, DryRun: o.dryRun, Fresh: o.fresh,
		BaseEnv: base}, env)
	if !ok {
		return ExitFailure
	}
	if o.json {
		printJSON(env.Stdout, rep)
	} else {
		if len(rep.Runs) == 0 && len(rep.Refused) == 0 {
			fmt.Fprintln(env.Stdout, "nothing to restore: no run was lost")
		}
		for _, r := range rep.Runs {
			fmt.Fprintln(env.Stdout, restoredLine(r, o.dryRun))
		}
	}
	for _, e := range rep.Refused {
		fmt.Fprintf(env.Stderr, "corral %s: %s\n", api.Restore.Name(), e)
	}
	for _, r := range rep.Runs {
		if r.Error != "" {
			return ExitFailure
		}
	}
	if len(rep.Refused) > 0 {
		return ExitFailure
	}
	return ExitOK
}

// restoredLine is one lost run's line: "r1 (name) → r2: resumes conversation X in DIR".
func restoredLine(r runs.Restored, dry bool) string {
	what := "resumes conversation " + r.SessionID
	if r.SessionID == "" {
		what = "starts fresh (no conversation id was recorded)"
		if r.Agent == "" {
			what = "starts again (restore = true)"
		}
	}
	cmd := r.Shell
	if cmd == "" {
		cmd = strings.Join(r.Argv, " ")
	}
	switch {
	case r.Error != "" && r.ID == "":
		return fmt.Sprintf("%s (%s): not started: %s", r.From, r.Name, r.Error)
	case r.Error != "":
		return fmt.Sprintf("%s (%s): not started (run %s ended at once): %s; fix that and run corral restore %s again",
			r.From, r.Name, r.ID, r.Error, r.From)
	case r.ID != "":
		return fmt.Sprintf("%s (%s) → %s: %s in %s", r.From, r.Name, r.ID, what, r.Dir)
	case dry && r.Skipped == runs.SkippedDryRun:
		return fmt.Sprintf("%s (%s): would start %q in %s: %s", r.From, r.Name, cmd, r.Dir, what)
	}
	return fmt.Sprintf("%s (%s): not restored: %s", r.From, r.Name, r.Skipped)
}
