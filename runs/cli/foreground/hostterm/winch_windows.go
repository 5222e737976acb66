package hostterm

import "os"

// NotifyWinch does nothing on Windows, which has no SIGWINCH; console size changes
// would come from the console API.
func NotifyWinch(chan<- os.Signal) {}
