package control

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"corral/runs"
	"corral/runs/agentstate"
	"corral/runs/api"
	"corral/runs/client"
)

// The agent verbs: explain, hook, agents.

func explain(c *client.Client, o *opts, env Env) int {
	rep, ok := call(o.ctx, api.Explain, c, api.RunRef{ID: o.args[0]}, env)
	if !ok {
		return ExitFailure
	}
	if o.json {
		printJSON(env.Stdout, rep)
		return ExitOK
	}
	writeExplanation(env.Stdout, rep.Run.Info, rep.Explanation, time.Now())
	return ExitOK
}

// writeExplanation prints corral explain: the state, the rules tried in order, and
// what each region read held.
func writeExplanation(w io.Writer, run runs.Info, e agentstate.Explanation, now time.Time) {
	fmt.Fprintf(w, "%s %s: %s", run.ID, runs.Printable(run.Name), run.AgentState)
	if !run.AgentStateSince.IsZero() {
		fmt.Fprintf(w, " since %s (%s ago)", run.AgentStateSince.Format(time.TimeOnly),
			now.Sub(run.AgentStateSince).Round(time.Second))
	}
	fmt.Fprintf(w, ", by %s\n", ruleOrNone(run.AgentRule))
	fmt.Fprintf(w, "the screen now: %s, by %s\n", e.State, ruleOrNone(e.Rule))
	if run.AgentBy != "" {
		fmt.Fprintf(w, "recognised: %s\n", run.AgentBy)
	}
	fmt.Fprintf(w, "agent %s, rules from %s, tried by priority:\n", e.Agent, e.Source)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, ch := range e.Checks {
		mark := "no"
		if ch.Matched {
			mark = "MATCH"
		}
		fmt.Fprintf(tw, "  %s\t%d\t%s\t%s\t%s\n", mark, ch.Priority, ch.State, ch.Rule, runs.Printable(ch.Why))
	}
	tw.Flush()
	for _, r := range e.Regions {
		fmt.Fprintf(w, "%s:\n", r.Region)
		for _, l := range r.Lines {
			fmt.Fprintf(w, "  │%s\n", runs.Printable(l))
		}
	}
}

func ruleOrNone(r string) string {
	if r == "" {
		return "no rule (none matched)"
	}
	return "rule " + r
}

// hookPayloadMax bounds a hook's JSON.
const hookPayloadMax = 1 << 20

// hook reports an agent hook to the run it runs in. An agent waits for its hooks and
// may show their failures to its user, so hook is quick and quiet: it exits 0
// whatever happens, and says on stderr only what a person would act on.
func hook(_ *client.Client, o *opts, env Env) int {
	id := o.agent
	if id == "" {
		id = os.Getenv(runs.RunIDEnv)
	}
	var payload []byte
	if len(o.args) == 1 {
		payload = []byte(o.args[0]) // codex's notify passes its JSON as an argument
	} else {
		payload, _ = io.ReadAll(io.LimitReader(env.Stdin, hookPayloadMax))
	}
	if id == "" {
		fmt.Fprintf(env.Stderr, "corral hook: not in a Corral run (no $%s): nothing to report\n", runs.RunIDEnv)
		return ExitOK
	}
	if !json.Valid(payload) {
		fmt.Fprintf(env.Stderr, "corral hook: the payload is not JSON\n")
		return ExitOK
	}
	if o.stateDir == "" {
		o.stateDir = os.Getenv(runs.StateDirEnv)
	}
	c, _ := connect(o.ctx, api.Hook.Name(), Where{StateDir: o.stateDir}, Env{StateDir: env.StateDir, Stderr: io.Discard}, false, nil)
	if c == nil {
		return ExitOK // no server: the run's screen says what it needs
	}
	defer c.Close()
	rep, err := api.Hook.Call(o.ctx, c, api.HookArgs{ID: id, Payload: payload,
		Secret: os.Getenv(runs.RunSecretEnv)})
	if o.json && err == nil {
		printJSON(env.Stdout, rep)
	}
	return ExitOK
}

// agents lists the agents Corral knows (built in, and the user's rule files) with
// their rules; --print-hooks prints the settings that make an agent call corral hook.
func agents(_ *client.Client, o *opts, env Env) int {
	if o.hooks != "" {
		exe, err := os.Executable()
		if err != nil {
			exe = "corral"
		}
		s, err := agentstate.HookSettings(o.hooks, exe)
		if err != nil {
			fmt.Fprintf(env.Stderr, "corral agents: %v\n", err)
			return ExitUsage
		}
		fmt.Fprint(env.Stdout, s)
		return ExitOK
	}
	set, errs := agentstate.Load(agentstate.UserDir())
	for _, e := range errs {
		fmt.Fprintf(env.Stderr, "corral agents: %v\n", e)
	}
	if o.json {
		printJSON(env.Stdout, agentsJSON(set))
		return ExitOK
	}
	fmt.Fprintf(env.Stdout, "rule files: built in, and %s/*.toml (a file for a known agent replaces its rules)\n",
		agentstate.UserDir())
	for _, a := range set.Agents() {
		fmt.Fprintf(env.Stdout, "\n%s (%s) — %s\n  runs as: %s\n", a.Name, a.Title, a.Source,
			strings.Join(append(append([]string{}, a.Commands...), a.Packages...), ", "))
		tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
		for _, r := range a.Rules {
			fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\n", r.Priority, r.State, r.Name, regionsOf(r))
		}
		tw.Flush()
	}
	return ExitOK
}

func regionsOf(r agentstate.Rule) string {
	var rs []string
	for _, c := range r.When {
		rs = append(rs, c.Region.String())
	}
	return strings.Join(rs, " + ")
}

// agentJSON is one agent of corral agents --json.
type agentJSON struct {
	Name     string     `json:"name"`
	Title    string     `json:"title"`
	Source   string     `json:"source"`
	Commands []string   `json:"commands"`
	Packages []string   `json:"packages"`
	Rules    []ruleJSON `json:"rules"`
}

type ruleJSON struct {
	Name     string           `json:"name"`
	State    agentstate.State `json:"state"`
	Priority int              `json:"priority"`
	Regions  string           `json:"regions"`
}

func agentsJSON(set *agentstate.Set) []agentJSON {
	out := []agentJSON{}
	for _, a := range set.Agents() {
		j := agentJSON{Name: a.Name, Title: a.Title, Source: a.Source, Commands: a.Commands, Packages: a.Packages}
		for _, r := range a.Rules {
			j.Rules = append(j.Rules, ruleJSON{Name: r.Name, State: r.State, Priority: r.Priority, Regions: regionsOf(r)})
		}
		out = append(out, j)
	}
	return out
}
