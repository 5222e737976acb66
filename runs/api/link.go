package api

import (
	"errors"

	"corral/runs"
)

// ErrServerLost: an attached UI's server went away and its core (client.Remote) is
// reconnecting; the call was not sent.
var ErrServerLost = errors.New("not delivered: the server is lost, reconnecting")

// An attached UI's core's own events, beside the server's: the server was lost
// (Run.PID: the lost server's pid; Detail: why, then each failed attempt), and the
// core is attached again (Run.PID: the new server's pid). Their Run names no run.
const (
	EventServerLost runs.EventType = "server-lost"
	EventServerBack runs.EventType = "server-back"
)

// EventRefresh is an attached UI's core's event for what its server pushed (Refresh):
// Run is a run as a snapshot would bring it (with its watchdog and usage); a Run that
// names no run says the server pushes (the first), or, with Detail DetailCounters,
// that the counters moved.
const EventRefresh runs.EventType = "refresh"

// DetailCounters is an EventRefresh's Detail when the counters moved.
const DetailCounters = "counters"
