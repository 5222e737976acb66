package runs

import "os"

// notifyChildExits: Windows has no SIGCHLD (nor a subreaper to reap for).
func notifyChildExits(chan<- os.Signal) (stop func()) { return func() {} }
