package control

import "errors"

// ErrUnknownHost: --host names neither this machine (local) nor a [[host]] of the
// config.
var ErrUnknownHost = errors.New("unknown host")
