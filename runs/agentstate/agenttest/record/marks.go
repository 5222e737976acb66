package main

import "strings"

// marks are what the driver reads on an agent's screen to confirm a phase the model
// server already told it about. They are deliberately few and plain (the detector
// being tested has its own rules): each is a string the agent shows in that state
// only, seen in every recording of the CLI versions in the corpus README.
type marks struct {
	ready      []string // all present: the prompt is up and accepts input
	working    []string // any present: a turn is in progress
	permission []string // all present: the approval question is up
	idle       []string // all present, and no working mark: back at the prompt
	approve    string   // send-keys words that approve once
	quit       string   // the command that ends the CLI, submitted at its prompt
}

var agentMarks = map[string]marks{
	"claude": {
		ready:      []string{"? for shortcuts"},
		working:    []string{"esc to interrupt"},
		permission: []string{"Do you want to proceed?", "1. Yes", "Esc to cancel"},
		idle:       []string{"? for shortcuts"},
		approve:    "Enter",
		quit:       "/exit",
	},
	"codex": {
		// codex draws its composer with "? for shortcuts" 0.4 s in, seconds before
		// its app-server is up (a prompt typed then is lost); the model line under
		// the composer comes with the title when it is.
		ready:      []string{"? for shortcuts", "GPT-5.5 default"},
		working:    []string{"esc to interrupt"},
		permission: []string{"Would you like to run the following command?", "1. Yes, proceed (y)", "Press enter to confirm"},
		idle:       []string{"? for shortcuts"},
		approve:    "y",
		quit:       "/quit",
	},
	"gemini": {
		ready:      []string{"Type your message"},
		working:    []string{"esc to cancel"},
		permission: []string{"Allow execution", "1. Allow once", "3. No, suggest changes"},
		idle:       []string{"Type your message"},
		approve:    "Enter",
		quit:       "/quit",
	},
	"opencode": {
		// "Corral model" on the model line under the input says the config was read
		// (else it shows its default model and sends the prompt there); the
		// placeholder "Ask anything…" is on the home screen only.
		ready:      []string{"Ask anything", "Corral model", "ctrl+p commands"},
		working:    []string{"esc interrupt"},
		permission: []string{"Permission required", "Allow once", "Reject"},
		idle:       []string{"ctrl+p commands"},
		approve:    "Enter",
		quit:       "/exit",
	},
}

func hasAll(text string, subs []string) bool {
	for _, s := range subs {
		if !strings.Contains(text, s) {
			return false
		}
	}
	return true
}

func hasAny(text string, subs []string) bool {
	for _, s := range subs {
		if strings.Contains(text, s) {
			return true
		}
	}
	return false
}

func (m marks) isReady(v view) bool   { return hasAll(v.Text, m.ready) && !hasAny(v.Text, m.working) }
func (m marks) isWorking(v view) bool { return hasAny(v.Text, m.working) }
func (m marks) isAsking(v view) bool  { return hasAll(v.Text, m.permission) }
func (m marks) isIdle(v view) bool {
	return hasAll(v.Text, m.idle) && !hasAny(v.Text, m.working) && !m.isAsking(v)
}
