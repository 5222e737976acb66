package api

import (
	"context"
	"time"

	"corral/runs"
)

// Several hosts (DESIGN §19): a UI over several servers, each on its own machine with
// its own runs, registry and ownership, calls them through one core (client.Fleet),
// which routes each operation to the server of the run it names. What names no run
// goes to the host the context names (OnHost), else to every host, merged.

// EventHostState is a core of several hosts' own event: a host's link changed
// (connecting, connected, lost, unreachable, version mismatch). Run.Host names it;
// the core's Hosts says what it is now.
const EventHostState runs.EventType = "host-state"

// HostStatus is where a UI stands with one host's server.
type HostStatus string

const (
	HostConnecting  HostStatus = "connecting"
	HostConnected   HostStatus = "connected"
	HostLost        HostStatus = "reconnecting" // the server went away; a new one is being reached
	HostUnreachable HostStatus = "unreachable"
	HostMismatch    HostStatus = "version mismatch"
)

// HostState is one host as a UI of several sees it.
type HostState struct {
	Name    string     // as configured ([[host]] name, or config.LocalHost)
	Where   string     // how it is reached: "this machine", or "ssh DEST"
	Local   bool       // this machine's server
	Status  HostStatus // the link now
	Since   time.Time  // in this status since
	Err     string     // why it is not connected (the last attempt's error)
	Next    time.Time  // the next attempt (zero while connected or connecting)
	Attempt int        // failed attempts in a row
	Server  int        // the server's pid while connected (0 over ssh: not known)
}

type hostKey struct{}

// OnHost sends the operations called with the returned context to host's server: a
// run started there, its snapshot alone.
func OnHost(ctx context.Context, host string) context.Context {
	return context.WithValue(ctx, hostKey{}, host)
}

// HostOf is the host ctx sends operations to ("" for none: by the run they name).
func HostOf(ctx context.Context) string {
	h, _ := ctx.Value(hostKey{}).(string)
	return h
}

// RunOf is the run reference args carry, if it is an operation on one run (its id,
// "" when the reference is empty: a viewer that looks at no run).
func RunOf(args any) (string, bool) {
	r, ok := args.(interface{ ref() string })
	if !ok {
		return "", false
	}
	return r.ref(), true
}

func (a PollArgs) ref() string   { return a.ID }
func (a LogArgs) ref() string    { return a.ID }
func (a WaitArgs) ref() string   { return a.ID }
func (a ShowArgs) ref() string   { return a.ID }
func (a ScreenArgs) ref() string { return a.ID }
func (a HookArgs) ref() string   { return a.ID }
