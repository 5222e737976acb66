package server

import "os"

// StartSelf starts the state dir's server as a daemon: this same binary, as
// `corral server --daemon --state-dir DIR`.
func StartSelf(dir string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	return StartDaemon(exe, "server", "--daemon", "--state-dir", dir)
}
