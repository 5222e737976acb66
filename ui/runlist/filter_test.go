package runlist

import (
	"slices"
	"testing"

	"corral/runs"
	"corral/runs/agentstate"
)

// The filter finds runs by what their rows show besides the name and id: the agent's
// state (/waiting, /working, /idle), the kind (/pty, /pipe), the agent (/codex), a
// run's own state (/paused, /exited); words combine, and each of those matches from
// its start only ("y" is not every pty run). Pending runs match by kind and agent.
func TestFilterMatchesStateKindAndAgent(t *testing.T) {
	agent := func(id, name, ag string, st agentstate.State) runs.Info {
		i := liveRun(id, name, true)
		i.Agent, i.AgentState = ag, st
		return i
	}
	paused := liveRun("r6", "held", false)
	paused.Paused = true
	ended := agent("r7", "finished", "claude", agentstate.Idle)
	ended.State = runs.Exited
	l := newList([]runs.Info{
		agent("r1", "fix-tests", "claude", agentstate.Waiting),
		agent("r2", "refactor", "codex", agentstate.Working),
		agent("r3", "docs", "gemini", agentstate.Idle),
		liveRun("r4", "server", false),
		agent("r5", "review", "codex", agentstate.Waiting),
		paused, ended,
	})
	l.SetNotStarted([]runs.Spec{{Name: "later", Shell: "codex", PTY: true, Agent: "codex"}, {Name: "build", Shell: "make"}})
	p0, p1 := l.pending[0].Key, l.pending[1].Key
	l.SetSize(60, 20)
	filter := func(text string) []string {
		l.ClearFilter()
		l, _ = l.Update(press("/"))
		for _, r := range text {
			l, _ = l.Update(press(string(r)))
		}
		l, _ = l.Update(press("enter"))
		var keys []string
		for _, i := range l.shown() {
			keys = append(keys, l.keyAt(i))
		}
		return keys
	}
	for _, c := range []struct {
		filter string
		want   []string
	}{
		{"waiting", []string{"r1", "r5"}},
		{"WORK", []string{"r2"}},
		{"idle", []string{"r3"}}, // r7 ended: its last state is not shown
		{"pty", []string{"r1", "r2", "r3", "r5", "r7", p0}},
		{"pipe", []string{"r4", "r6", p1}},
		{"codex", []string{"r2", "r5", p0}},
		{"codex waiting", []string{"r5"}},
		{"pipe paused", []string{"r6"}},
		{"exited", []string{"r7"}},
		{"y", nil},              // inside "pty", but in no name and the start of no word
		{"doc", []string{"r3"}}, // the name, as before
		{"r4", []string{"r4"}},  // the id, as before
	} {
		if got := filter(c.filter); !slices.Equal(got, c.want) {
			t.Errorf("/%s shows %v, want %v", c.filter, got, c.want)
		}
	}
}
