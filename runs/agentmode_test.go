package runs

import (
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/runs/agentstate"
)

// modeRules are the toy agent's rules with two modes in which it will not ask: one its
// flag says, one its screen shows.
const modeRules = testkit.ToyRules + `
[[mode]]
name = "unasked"
flags = ["--no-ask"]
[[mode]]
name = "yolo"
region = "bottom 2"
any = ['YOLO']
`

// A run's agent mode (one in which it will not ask) is in its Info and its record:
// from the command's flags at once, and as its screen shows it, which decides at the
// prompt for a mode the screen shows.
func TestAgentModeShown(t *testing.T) {
	keysAreNews(t)
	a, err := agentstate.ParseRules("toy.toml", []byte(modeRules))
	if err != nil {
		t.Fatal(err)
	}
	reg := openReg(t, t.TempDir())
	s := regSup(t, reg, WithScreens(), WithAgents(agentstate.NewSet(a)))

	flagged := spawn(t, s, Spec{Name: "flagged", PTY: true, Agent: "toy",
		Shell: `: toy-agent --no-ask && printf '\033]0;toy\007> '; read a`})
	if info := waitAgent(t, s, flagged, agentstate.Idle); info.AgentMode != "unasked" {
		t.Errorf("started with --no-ask: mode %q, want unasked", info.AgentMode)
	}

	shown := spawn(t, s, Spec{Name: "shown", PTY: true, Agent: "toy",
		Shell: `printf '\033]0;toy\007> '; read a
printf '\033[2J\033[H> \r\nYOLO on'; read b
printf '\033]0;\342\240\202 toy\007\033[2J\033[Hthinking\r\nYOLO on'; read c
printf '\033]0;toy\007\033[2J\033[H> '; read d`})
	if info := waitAgent(t, s, shown, agentstate.Idle); info.AgentMode != "" {
		t.Errorf("at a prompt without YOLO: mode %q", info.AgentMode)
	}
	for _, want := range []struct {
		state agentstate.State
		mode  string
	}{{agentstate.Idle, "yolo"}, {agentstate.Working, "yolo"}, {agentstate.Idle, ""}} {
		if err := s.Write(shown, []byte("\r")); err != nil {
			t.Fatal(err)
		}
		waitInfo(t, s, shown, want.state.String()+" in mode "+want.mode, func(i Info) bool {
			return i.AgentState == want.state && i.AgentMode == want.mode
		})
		if want.mode == "yolo" && want.state == agentstate.Idle {
			rec, ok := eventually.Within(10*time.Second, func() (Record, bool) {
				rec, err := reg.record(shown)
				return rec, err == nil && rec.AgentMode == "yolo"
			})
			if !ok {
				t.Errorf("the record's mode: %q", rec.AgentMode)
			}
		}
	}
}
