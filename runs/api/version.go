package api

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Version is the protocol version this binary speaks. A change that a peer of the
// same version would misread bumps it; adding a field does not: a peer of the same
// version ignores a field it does not know (encoding/json's rule, which no decoder of
// this package overrides), and a field it does not get reads as its zero value, so
// every added field is optional with a zero that means "as before".
var Version = speaks()

// protocolOverride is empty in every build but a test's: `go build -ldflags
// "-X corral/runs/api.protocolOverride=2"` makes a binary that speaks protocol 2, so
// the end-to-end tests can pair an older and a newer side through the real binary.
var protocolOverride string

func speaks() int {
	if n, err := strconv.Atoi(protocolOverride); err == nil && n > 0 {
		return n
	}
	return 1
}

// Binary is this binary's corral version (main sets it from its build-time version);
// hello carries it both ways so a mismatch can name the binaries.
var Binary = "dev"

// Side is one end of a conversation as a version mismatch names it.
type Side struct {
	Protocol int
	Binary   string // "" when that side did not say (a client older than the field)
	PID      int    // the server's; 0 when unknown (over ssh)
}

// Mismatch is the one message a client shows when it and its server speak different
// protocol versions: which side is newer, and what to do about it. The server words
// it for its client (an older client shows the server's message as it comes), and a
// client words it again from the server's Side when it knows better.
func Mismatch(server, client Side) string {
	srv := "the server"
	var about []string
	if server.PID > 0 {
		about = append(about, "pid "+strconv.Itoa(server.PID))
	}
	if server.Binary != "" {
		about = append(about, "corral "+server.Binary)
	}
	if len(about) > 0 {
		srv += " (" + strings.Join(about, ", ") + ")"
	}
	cli := "this client"
	if client.Binary != "" {
		cli += " (corral " + client.Binary + ")"
	}
	advice := "use the binary the server runs, or a newer corral"
	if server.Protocol < client.Protocol {
		advice = "use the binary the server runs, or move the server to this one: `corral server --upgrade` (with this binary) hands it every run, and none ends"
	}
	return fmt.Sprintf("%s runs corral protocol %d, %s speaks %d: %s", srv, server.Protocol, cli, client.Protocol, advice)
}

// VersionError is the server's answer to a request of another protocol version:
// CodeVersion, worded for the client by Mismatch, with the server's Side in its
// fields. req is the request line's verb and arguments as far as they decode (a
// hello says the client's binary).
func VersionError(server Side, req Request) *Error {
	client := Side{Protocol: req.V}
	if req.Verb == Hello.Name() {
		var a HelloArgs
		if json.Unmarshal(req.Args, &a) == nil {
			client.Binary = a.Binary
		}
	}
	return &Error{Code: CodeVersion, Message: Mismatch(server, client),
		Protocol: server.Protocol, Binary: server.Binary, PID: server.PID}
}
