package agentstate

import "fmt"

// State is what an agent is doing, as its screen shows.
type State uint8

const (
	Unknown State = iota // no rule decides, or not a known agent
	Working              // busy: thinking, streaming, running a tool
	Waiting              // blocked on its human: a permission prompt, a question, a trust or login screen
	Idle                 // at its prompt, nothing pending
)

var stateNames = [...]string{Unknown: "unknown", Working: "working", Waiting: "waiting", Idle: "idle"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", s)
}

// Glyph marks the state so that it reads at a glance, in colour or not: "!"
// waiting, "◐" working, "✓" idle; "" for unknown. The UI's run list and corral ls
// draw it before the state's name.
func (s State) Glyph() string {
	switch s {
	case Waiting:
		return "!"
	case Working:
		return "◐"
	case Idle:
		return "✓"
	}
	return ""
}

// ParseState reads a state's name.
func ParseState(name string) (State, error) {
	for s, n := range stateNames {
		if n == name {
			return State(s), nil
		}
	}
	return Unknown, fmt.Errorf("%w %q (want unknown, working, waiting or idle)", ErrState, name)
}

func (s State) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

func (s *State) UnmarshalText(b []byte) error {
	v, err := ParseState(string(b))
	*s = v
	return err
}
