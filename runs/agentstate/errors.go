package agentstate

import "errors"

// ErrState: a name that is no state.
var ErrState = errors.New("no state")
