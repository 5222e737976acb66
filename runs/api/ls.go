package api

import "encoding/json"

// What the server's corral ls (Ls) takes and answers.
type (
	// LsArgs are corral ls's flags: --all, and whether a table is wanted (else JSON).
	LsArgs struct {
		All   bool `json:"all,omitempty"`
		Table bool `json:"table,omitempty"`
	}
	// LsReply is the listing, ready to print: corral ls --json's document, compact
	// (the client indents it: cheaper than decoding and encoding it again, and it
	// crosses the socket without escaping), or the table's text.
	LsReply struct {
		Doc   json.RawMessage `json:"doc,omitempty"`
		Table string          `json:"table,omitempty"`
	}
)
