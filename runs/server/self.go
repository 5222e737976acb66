package server

import (
	"os"

	"corral/config"
)

// StartSelf starts the state dir's server as a daemon: this same binary, as
// `corral server --daemon --state-dir DIR`. A state dir the server would refuse (not
// the user's, a link, made in a directory others can write into) is refused here, with
// its reason: the daemon's own refusal goes to /dev/null, and its caller was left to
// say "no corral server is running".
func StartSelf(dir string) error {
	if err := config.EnsureStateDir(dir); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	return StartDaemon(exe, "server", "--daemon", "--state-dir", dir)
}
