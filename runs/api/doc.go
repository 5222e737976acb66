// Package api is the protocol between Corral's clients and a supervisor:
// every operation declared once (verbs.go) with its name, argument and reply types,
// lane and handler; the framing of requests and responses on the socket
// (protocol.go); and the types that carry runs, trees and frames across it
// (types.go, wire.go).
//
// One generic path serves every operation. The server (package server) looks a
// request's name up and runs the operation's handler on its supervisor; a client
// calls Op.Call with a Caller — the UI's in-process core applies the handler to the
// supervisor of its own process, package client sends it over the socket — and gets
// the reply typed. Adding an operation is one declaration; no name is written twice.
package api
