package server

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"

	"corral/config"
	"corral/runs"
	"corral/runs/keeper"
)

// KeeperLog is the keeper's log in the state dir.
const KeeperLog = "keeper.log"

// Keep is corral server when no keeper started it: this process becomes the state dir's
// keeper and starts the server proper as its child (this binary again, the same
// arguments, the keeper's socket as descriptor 3), so that the server's runs outlive
// it. A state dir that has a keeper already is not an error: that keeper serves it. In
// the foreground (not daemon) the server's log goes to stderr too.
func Keep(stateDir string, args []string, daemon bool) error {
	dir, err := config.ResolveStateDir(stateDir, config.Default().StateDir)
	if err != nil {
		return err
	}
	// Its owner is checked before anything is written into it (keeper.lock,
	// keeper.log): a root keeper wrote both into another user's dir, then refused it.
	if err := config.EnsureStateDir(dir); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	var w io.Writer = io.Discard
	f, err := openLog(dir, KeeperLog)
	if err == nil {
		defer f.Close()
		w = f
	}
	o := keeper.Options{StateDir: dir, Exe: exe, Args: args, Log: slog.New(slog.NewTextHandler(w, nil)),
		Pending: func() bool { return runs.Pending(dir, os.Getpid()) }}
	if !daemon {
		o.Stderr = os.Stderr
	}
	err = keeper.Serve(o)
	if errors.Is(err, keeper.ErrRunning) {
		if !daemon {
			return fmt.Errorf("the state dir %s has a keeper and server already", dir)
		}
		return nil
	}
	return err
}
