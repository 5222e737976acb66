package runs

import "fmt"

// SignalName is the signal's number on Windows, which has no POSIX signal names.
func SignalName(n int) string { return fmt.Sprintf("SIG%d", n) }
