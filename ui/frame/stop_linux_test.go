package frame

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

// procState is process pid's state letter in /proc (T: stopped), "" once it is gone.
func procState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2 : i+3]
	}
	return ""
}

// TestStopHelper is the process stopped in TestStopLeavesAParentInItsGroupRunning.
func TestStopHelper(t *testing.T) {
	if os.Getenv("FRAME_STOP_HELPER") == "" {
		t.Skip("run by TestStopLeavesAParentInItsGroupRunning")
	}
	done := make(chan struct{})
	continued := make(chan struct{})
	go notifyStop(done, func() {}, func() { close(continued) })
	time.Sleep(100 * time.Millisecond) // notifyStop has asked for SIGTSTP (not waited on: a helper)
	_ = syscall.Kill(syscall.Getpid(), syscall.SIGTSTP)
	<-continued
	close(done)
}

// A stop from the shell (SIGTSTP) stops the UI, and a parent in its process group
// that does no job control (sh -c "corral; …") goes on running: only the UI is
// continued later, and a parent stopped with it would be left stopped.
func TestStopLeavesAParentInItsGroupRunning(t *testing.T) {
	sh := exec.Command("sh", "-c", `"$0" -test.run='^TestStopHelper$' & echo $!; wait`, os.Args[0])
	sh.Env = append(os.Environ(), "FRAME_STOP_HELPER=1")
	sh.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // sh leads the group; the helper is in it
	out, err := sh.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-sh.Process.Pid, syscall.SIGCONT)
		_ = syscall.Kill(-sh.Process.Pid, syscall.SIGKILL)
		_ = sh.Wait()
	})
	line, _ := bufio.NewReader(out).ReadString('\n') // sh's echo, before the helper has started
	helper, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("helper pid %q: %v", line, err)
	}
	eventually.True(t, 20*time.Second, "the helper stops", func() bool { return procState(helper) == "T" })
	if st := procState(sh.Process.Pid); st == "T" {
		t.Errorf("the parent shell in the helper's group was stopped with it")
	}
	_ = syscall.Kill(helper, syscall.SIGCONT)
	eventually.True(t, 20*time.Second, "the helper goes on and ends", func() bool { st := procState(helper); return st == "" || st == "Z" })
}
