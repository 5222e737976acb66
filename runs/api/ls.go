package api

import "encoding/json"

// What the server's corral ls (Ls) takes and answers.
type (
	// LsArgs are corral ls's flags: --all, and whether a table is wanted (else JSON).
	// Raw asks for the output as printed (the table, or the indented document and its
	// newline) after the reply's line (Response.Body), in Printed: the client copies
	// it out without reading it. A server older than Raw ignores it and answers Doc or
	// Table.
	LsArgs struct {
		All   bool `json:"all,omitempty"`
		Table bool `json:"table,omitempty"`
		Raw   bool `json:"raw,omitempty"`
	}
	// LsReply is the listing, ready to print: corral ls --json's document, compact
	// (the client indents it: cheaper than decoding and encoding it again, and it
	// crosses the socket without escaping), or the table's text; with Raw, Printed.
	LsReply struct {
		Doc     json.RawMessage `json:"doc,omitempty"`
		Table   string          `json:"table,omitempty"`
		Printed []byte          `json:"-"`
	}
)

// ReplyBody is what follows the reply's line: Printed.
func (r LsReply) ReplyBody() []byte { return r.Printed }

// SetReplyBody takes what followed the reply's line.
func (r *LsReply) SetReplyBody(b []byte) { r.Printed = b }
