//go:build windows

package runs

// Windows has neither flag; the state dir lives in the user's profile there.
const (
	oNoFollow = 0
	oNonBlock = 0
)

func isLinkLoop(error) bool { return false }
