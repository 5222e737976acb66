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
