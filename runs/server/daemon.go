package server

import (
	"fmt"
	"os"
	"os/exec"
)

// StartDaemon starts `exe args…` as the server daemon: in a session of its own (no
// controlling terminal, not in the starting terminal's process groups, so closing
// that terminal sends it nothing) with stdin, stdout and stderr on /dev/null (it logs
// to the state dir). It does not wait for the server to listen; Connect does.
func StartDaemon(exe string, args ...string) error {
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer null.Close()
	cmd := exec.Command(exe, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = null, null, null
	cmd.Dir = "/" // never pin the starter's working directory
	cmd.SysProcAttr = daemonAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", exe, err)
	}
	// The starter may live on (the UI): reap the daemon if it ends first, so it is
	// never left a zombie. A starter that exits first leaves it to be reparented.
	go cmd.Wait()
	return nil
}
