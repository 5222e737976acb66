package api

import "encoding/json"

// Ls is corral ls answered by the server from what it holds (runs/server), so that
// listing a thousand runs reads none of their records: the client prints the reply
// as it is. A server older than this one does not know it (CodeUnknown), and the
// client lists the registry's files itself, as it did.
var Ls = session[LsArgs, LsReply]("ls")

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
