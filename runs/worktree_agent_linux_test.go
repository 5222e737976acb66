package runs

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"corral/runs/agentstate"

	"corral/demo/testkit/gittest"
)

// An agent run in a new worktree with setup steps is recognised from its command as
// without them, follows its states, and is explained; after the steps the program
// holds the run's own pid (the wrapper execs it), which is what the foreground
// recognition then sees.
func TestWorktreeSetupAgentRecognised(t *testing.T) {
	_, path := toyBin(t)
	s := newSup(t, WithScreens(), WithAgents(toySet(t)))
	repo := gittest.Repo(t)
	spec := worktreeSpec(repo, t.TempDir(), "", "echo preparing")
	spec.Shell, spec.Argv, spec.PTY = "", []string{"toy-agent"}, true
	spec.BaseEnv = append(gittest.Env(), path)
	id := spawn(t, s, spec)
	info := waitAgent(t, s, id, agentstate.Idle)
	if info.Agent != "toy" || !strings.HasPrefix(info.AgentBy, "from the command") {
		t.Fatalf("agent %q by %q", info.Agent, info.AgentBy)
	}
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(info.PID) + "/cmdline")
	if err != nil || !strings.Contains(string(cmdline), "toy-agent") || strings.Contains(string(cmdline), "corral-setup") {
		t.Fatalf("the run's pid %d runs %q (%v), not the agent", info.PID, cmdline, err)
	}
	if err := s.Write(id, []byte("\r")); err != nil {
		t.Fatal(err)
	}
	waitAgent(t, s, id, agentstate.Working)
	if e, err := s.Explain(id); err != nil || e.Agent != "toy" {
		t.Fatalf("explain: %+v %v", e, err)
	}
	s.Cancel(id)
	waitEnd(t, s, id)
}
