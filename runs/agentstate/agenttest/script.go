package agenttest

import (
	"context"
	"encoding/json"
	"net/http"
	"time"
	"unicode/utf8"
)

// Script is what the server plays in the main conversation: Intro streamed slowly,
// then a shell tool call running Command (which the CLI must ask the user to
// approve), then, when its result comes back, Final streamed slowly.
type Script struct {
	Intro   string
	Command string
	Final   string
	// Pace is the pause between chunks of Chunk runes: Intro and Final each take
	// about len/Chunk×Pace, long enough for a working phase to show on screen.
	Pace  time.Duration
	Chunk int
	// Title is the answer to every side request (a session title, mostly).
	Title string
}

// DoneToken ends the default script's final answer, so a driver and a detector test
// can recognise the answer on screen.
const DoneToken = "CORRAL-DONE-42"

// CallID is the id of the scripted tool call; the result is recognised by it.
const CallID = "call_corral_1"

// DefaultScript streams each text for about five seconds and runs a harmless
// command that writes a file in the project (so no CLI treats it as read-only and
// runs it without asking).
func DefaultScript() Script {
	return Script{
		Intro: "I will check the workspace first. Let me run a small shell command to " +
			"make sure the sandbox works and that I can write a marker file in this " +
			"project before I change anything else.",
		Command: "echo corral-ok > corral-ok.txt",
		Final: "The command ran and wrote corral-ok.txt. Everything is in place; " +
			"nothing else needs to change in this project.\n\n" + DoneToken,
		Pace:  250 * time.Millisecond,
		Chunk: 8,
		Title: "Corral check",
	}
}

func (s Script) withDefaults() Script {
	d := DefaultScript()
	if s.Intro == "" && s.Final == "" && s.Command == "" {
		return d
	}
	if s.Pace == 0 {
		s.Pace = d.Pace
	}
	if s.Chunk == 0 {
		s.Chunk = d.Chunk
	}
	if s.Title == "" {
		s.Title = d.Title
	}
	return s
}

// chunks splits text into pieces of at most n runes, never inside a rune.
func chunks(text string, n int) []string {
	var out []string
	for text != "" {
		i, k := 0, 0
		for i < len(text) && k < n {
			_, size := utf8.DecodeRuneInString(text[i:])
			i += size
			k++
		}
		out = append(out, text[:i])
		text = text[i:]
	}
	return out
}

// stage is where a main-conversation request stands in the script.
type stage int

const (
	stageSide  stage = iota // not the main conversation
	stageTurn               // the user's prompt: intro and tool call
	stageFinal              // the tool result is back: final answer
)

// sse writes server-sent events and paces them; it notices a client that left.
type sse struct {
	w   http.ResponseWriter
	ctx context.Context
}

func newSSE(w http.ResponseWriter, r *http.Request) *sse {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return &sse{w: w, ctx: r.Context()}
}

// send writes one event (name may be empty) with v as its JSON data and flushes it.
func (e *sse) send(name string, v any) {
	b, _ := json.Marshal(v)
	if name != "" {
		e.w.Write([]byte("event: " + name + "\n"))
	}
	e.w.Write([]byte("data: "))
	e.w.Write(b)
	e.w.Write([]byte("\n\n"))
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

// pause waits d, or reports false at once if the client went away.
func (e *sse) pause(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-e.ctx.Done():
		return false
	}
}

// stream sends text chunk by chunk through send, pausing between chunks. It reports
// false if the client went away.
func (s *Server) stream(e *sse, text string, send func(chunk string)) bool {
	for _, c := range chunks(text, s.script.Chunk) {
		if !e.pause(s.script.Pace) {
			return false
		}
		send(c)
	}
	return e.ctx.Err() == nil
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

// schemaAnswer is a JSON object with every property of a structured-output schema set
// to text: the CLIs' title requests ask for {"title": string}.
func schemaAnswer(props map[string]json.RawMessage, text string) string {
	obj := map[string]string{}
	for k := range props {
		obj[k] = text
	}
	b, _ := json.Marshal(obj)
	return string(b)
}
