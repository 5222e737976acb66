//go:build !unix

package client

import "errors"

var errNotHere = errors.New("the corral server is not supported on this platform yet")

func socketOwner(string) error { return errNotHere }
