package web

import "errors"

var (
	// ErrExposed: a listen address other machines can reach, without a token file or
	// the flag that says it is meant.
	ErrExposed = errors.New("not a loopback address: anyone who can reach it could try the token; " +
		"give --token-file (a token you keep) or --exposed to say it is meant")
	// ErrToken: the token file is unusable.
	ErrToken = errors.New("token")
)

// ErrServerGone: the server's stream ended (it stopped): the web view has nothing
// left to show.
var ErrServerGone = errors.New("the server stopped")
