package agenttest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The corpus: for each recording NAME, NAME.cast (asciicast v2, the agent's output
// exactly as read) and NAME.phases.json (a Recording). Offsets count bytes of the
// output stream, that is of the concatenated data of the cast's "o" events.

// The states a phase is labelled with: the detector's (agentstate.State).
const (
	StateWorking = "working"
	StateWaiting = "waiting"
	StateIdle    = "idle"
	StateUnknown = "unknown"
)

// Recording is NAME.phases.json.
type Recording struct {
	Name     string            `json:"name"`    // claude, codex-unfocused, …
	Agent    string            `json:"agent"`   // claude, codex, gemini, opencode
	Package  string            `json:"package"` // npm package
	Version  string            `json:"version"` // what the CLI's --version said
	Cols     int               `json:"cols"`
	Rows     int               `json:"rows"`
	Bytes    int               `json:"bytes"`    // length of the output stream
	Duration float64           `json:"duration"` // seconds, spawn to exit
	Env      map[string]string `json:"env"`      // the terminal variables Corral set, and the agent's
	Settings map[string]string `json:"settings"` // config files and variables written for the agent
	Phases   []Phase           `json:"phases"`
	Inputs   []Input           `json:"inputs"`
	Server   []ServerMark      `json:"server"`
	Notes    []string          `json:"notes,omitempty"`
}

// Phase is a stretch of the stream in one known state: every byte in [From, To).
// Bytes between phases are transitions and carry no label.
type Phase struct {
	Name   string  `json:"name"`
	State  string  `json:"state"`
	From   int     `json:"from"`
	To     int     `json:"to"`
	FromT  float64 `json:"from_t"` // seconds since spawn
	ToT    float64 `json:"to_t"`
	Screen string  `json:"screen"` // Screen.Text() after replaying [0, From)
	Title  string  `json:"title"`  // the title then
}

// Input is something the driver sent, at output offset At (time T).
type Input struct {
	Name string  `json:"name"`
	At   int     `json:"at"`
	T    float64 `json:"t"`
	Data string  `json:"data"` // the bytes or keys sent, as the driver gave them
}

// ServerMark is a model-server event placed in the stream: the output offset and time
// at which it happened.
type ServerMark struct {
	Kind EventKind `json:"kind"`
	At   int       `json:"at"`
	T    float64   `json:"t"`
}

// CastHeader is the first line of an asciicast v2 file.
type CastHeader struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp,omitempty"`
	Title     string            `json:"title,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
}

// CastEvent is one "o" event of a cast.
type CastEvent struct {
	T    float64
	Data string
}

// Cast is a parsed asciicast v2 file.
type Cast struct {
	Header CastHeader
	Events []CastEvent
}

// Stream is the output: every event's data, in order.
func (c Cast) Stream() []byte {
	var b strings.Builder
	for _, e := range c.Events {
		b.WriteString(e.Data)
	}
	return []byte(b.String())
}

// ReadCast parses an asciicast v2 file with output events only.
func ReadCast(path string) (Cast, error) {
	f, err := os.Open(path)
	if err != nil {
		return Cast{}, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var c Cast
	if !sc.Scan() {
		return c, fmt.Errorf("%s: empty", path)
	}
	if err := json.Unmarshal(sc.Bytes(), &c.Header); err != nil || c.Header.Version != 2 {
		return c, fmt.Errorf("%s: header: not asciicast v2 (%v)", path, err)
	}
	for line := 2; sc.Scan(); line++ {
		var ev [3]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			return c, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		t, ok1 := ev[0].(float64)
		kind, ok2 := ev[1].(string)
		data, ok3 := ev[2].(string)
		if !ok1 || !ok2 || !ok3 || kind != "o" {
			return c, fmt.Errorf("%s:%d: not an output event", path, line)
		}
		c.Events = append(c.Events, CastEvent{T: t, Data: data})
	}
	return c, sc.Err()
}

// Load reads recording name from dir: its phases and its cast.
func Load(dir, name string) (Recording, Cast, error) {
	var r Recording
	b, err := os.ReadFile(filepath.Join(dir, name+".phases.json"))
	if err != nil {
		return r, Cast{}, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, Cast{}, fmt.Errorf("%s.phases.json: %w", name, err)
	}
	c, err := ReadCast(filepath.Join(dir, name+".cast"))
	return r, c, err
}

// Phase returns the phase named name.
func (r Recording) Phase(name string) (Phase, bool) {
	for _, p := range r.Phases {
		if p.Name == name {
			return p, true
		}
	}
	return Phase{}, false
}
