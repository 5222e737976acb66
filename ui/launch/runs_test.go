package launch

import (
	"fmt"
	"testing"

	"corral/config"
	"corral/demo"
	"corral/runs"
	"corral/runs/agentstate"
)

// Autostarted entries are started, the others only listed, all are configured, and a
// parity entry is its PTY and pipe pair in each list; a bad entry is an error.
func TestFromEntries(t *testing.T) {
	entries := []config.RunEntry{
		{Name: "web", Argv: []string{"serve"}, Autostart: true},
		{Name: "later", Argv: []string{"job"}},
		{Name: "cmp", Argv: []string{"ls"}, Autostart: true, Parity: true},
	}
	rs, err := FromEntries(Runs{Mouse: true}, config.Default(), entries)
	if err != nil {
		t.Fatal(err)
	}
	names := func(ss []runs.Spec) string {
		var out []string
		for _, s := range ss {
			out = append(out, fmt.Sprintf("%s/%v", s.DisplayName(), s.PTY))
		}
		return fmt.Sprint(out)
	}
	if got := names(rs.Start); got != "[web/false cmp (pty)/true cmp (pipe)/false]" {
		t.Errorf("started %s", got)
	}
	if got := names(rs.Pending); got != "[later/false]" {
		t.Errorf("listed %s", got)
	}
	if len(rs.Configured) != 4 || !rs.Mouse {
		t.Errorf("configured %s, mouse %v", names(rs.Configured), rs.Mouse)
	}
	bad := []config.RunEntry{{Name: "x", Argv: []string{"x"}, StopSignal: "SIGNOPE", Line: 3}}
	if _, err := FromEntries(Runs{}, config.Default(), bad); err == nil {
		t.Error("an unknown stop signal was accepted")
	}
}

// A spec the server already runs live (same name and command) is not started again;
// one that ended, or differs in its command, is.
func TestNotRunning(t *testing.T) {
	web := runs.Spec{Name: "web", Argv: []string{"serve"}}
	job := runs.Spec{Name: "job", Argv: []string{"job"}}
	other := runs.Spec{Name: "web", Argv: []string{"serve", "--other"}}
	live := []runs.Info{
		{Name: "web", State: runs.Running, Spec: web},
		{Name: "job", State: runs.Exited, Spec: job},
	}
	got := notRunning([]runs.Spec{web, job, other}, live)
	if len(got) != 2 || got[0].Name != "job" || len(got[1].Argv) != 2 {
		t.Fatalf("to start: %+v", got)
	}
}

// The demo's fake agent has rules of its own, in a user's rule-file format.
func TestDemoAgentRules(t *testing.T) {
	a, err := agentstate.ParseRules("demo/agent.toml", demo.AgentRules)
	if err != nil || a.Name != "fake-agent" || len(a.Rules) != 3 {
		t.Fatalf("demo agent rules: %v %+v", err, a)
	}
	for _, s := range scenario() {
		if s.Name == "agent" && s.Agent != a.Name {
			t.Errorf("the demo's agent run names agent %q", s.Agent)
		}
	}
}
