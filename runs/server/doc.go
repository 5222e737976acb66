// Package server is Corral's server: one server per state dir owns a supervisor and
// every run in it, so runs outlive the terminal that started them; clients (package
// client: the control verbs, the UI) reach it over a Unix socket in the state dir. It
// answers every operation package api declares by that operation's handler, and the
// conversation's own (hello, subscribe, watch) itself.
//
// The protocol (package api) is newline-delimited JSON on `<state dir>/server.sock`: a Request, then
// its Response, in order, on one connection. Every message carries the protocol Version;
// a client first says hello, and a server of another version answers with ErrVersion's
// code so the client can say which side to upgrade. Requests are answered one at a time
// per connection (wait and poll may block); a client that needs two at once opens two
// connections. Bad requests (malformed JSON, an unknown verb or run, a message over
// MaxMessage) get an error response and never take the server down.
//
// No client can make the server hold or wait without bound (Limits): at most
// Limits.Conns connections, and none can lock the others out (fair.go): a newcomer to a
// full server takes the slot of the oldest idle connection of the peer process holding
// the most, or one of Limits.Reserve for the control verbs, and is told the server is
// busy, with the count, only when every connection is busy; unfinished requests share
// Limits.Buffered bytes, given back and returned to the OS once answered; a first
// request must come within Limits.Silent, any request whole within Limits.Slow of its
// first byte, and a reply be taken within Limits.Slow. A client over a limit is cut
// with the reason in server.log and, if it still reads, a CodeBusy reply. Idle between
// requests is fine.
//
// The socket is 0600 in the 0700 state dir, and every connection's peer uid is checked
// (SO_PEERCRED): another user's client is refused before it can send anything. There is
// no TCP listener; remote use goes through ssh (`corral proxy`).
package server
