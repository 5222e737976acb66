package demo

// The behaviours that make processes: trees, fan-outs, escapes, daemons.

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// tree [depth] [ignore-term]: a chain root → child → grandchild …, depth levels below
// the root. With ignore-term every level ignores SIGTERM and SIGHUP, so only SIGKILL
// ends it, whether it runs in a PTY (hung up first) or on pipes. Every level prints "member <pid>" and then blocks; the root prints
// "tree ready" once the deepest level has reported, so a test knows all pids.
func tree(args []string) int {
	depth := argInt(args, 0, 2)
	ignore := len(args) > 1 && args[1] == "ignore-term"
	if ignore {
		signal.Ignore(syscall.SIGTERM, syscall.SIGHUP)
	}
	fmt.Printf("member %d\n", os.Getpid())
	if depth > 0 {
		next := []string{"tree", strconv.Itoa(depth - 1)}
		if ignore {
			next = append(next, "ignore-term")
		}
		if err := startSelf(next, true); err != nil {
			fmt.Fprintln(os.Stderr, "tree:", err)
			return 1
		}
	} else {
		fmt.Println("tree ready")
	}
	return forever()
}

// fanout N [ignore-term]: the root starts N-1 children that block; prints "fanout ready"
// after all have started.
func fanout(args []string) int {
	n := argInt(args, 0, 10)
	mode := "sleep"
	if len(args) > 1 && args[1] == "ignore-term" {
		signal.Ignore(syscall.SIGTERM)
		mode = "ignore-term"
	}
	for i := 1; i < n; i++ {
		if err := startSelfQuiet([]string{mode}); err != nil {
			fmt.Fprintln(os.Stderr, "fanout:", err)
			return 1
		}
	}
	fmt.Println("fanout ready")
	return forever()
}

// startSelf starts this binary with args, inheriting stdout/stderr when loud.
func startSelf(args []string, loud bool) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, args...)
	if loud {
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	}
	// Reaped by whoever outlives it; this behaviour never waits.
	return cmd.Start()
}

// startSelfQuiet starts a child that does not share our output, then waits for its
// "ready" line so the caller knows it is running.
func startSelfQuiet(args []string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, args...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	_, err = bufio.NewReader(out).ReadString('\n')
	return err
}

// forever blocks until a signal ends the process. (An empty select would trip the
// runtime's deadlock detector in a program with no other goroutine.)
func forever() int {
	for {
		time.Sleep(time.Hour)
	}
}

// escape: setsid + double fork. The root starts a middle process that starts a
// session-leading sleeper and exits at once, so the sleeper is reparented outside the
// run's session. The root prints "escapee <pid>" and then blocks.
func escape([]string) int {
	exe, err := os.Executable()
	if err != nil {
		return 1
	}
	cmd := exec.Command(exe, "escapee-mid")
	out, err := cmd.Output()
	if err != nil {
		fmt.Fprintln(os.Stderr, "escape:", err)
		return 1
	}
	fmt.Printf("escapee %s\n", strings.TrimSpace(string(out)))
	return forever()
}

// escapeeMid starts a sleeper in a new session and exits, printing its pid.
func escapeeMid([]string) int {
	pid, err := startSleeper(true)
	if err != nil {
		fmt.Fprintln(os.Stderr, "escapee:", err)
		return 1
	}
	fmt.Println(pid)
	return 0
}

// startSleeper starts this binary's sleep behaviour, in a session of its own when
// newSession is set, does not wait for it, and returns its pid.
func startSleeper(newSession bool) (int, error) {
	exe, err := os.Executable()
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(exe, "sleep")
	if newSession {
		cmd.SysProcAttr = newSessionAttr()
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	return cmd.Process.Pid, nil
}

// daemonize starts a sleeper in its own session (the caller starts this behaviour
// with setsid, as a classic daemonizer calls it), prints "daemon <pid>" and exits,
// leaving the sleeper alone in the session. The pid-reuse tests give this
// process a recycled run root's pid, so the session carries the dead root's number.
func daemonize([]string) int {
	pid, err := startSleeper(false)
	if err != nil {
		fmt.Fprintln(os.Stderr, "daemonize:", err)
		return 1
	}
	fmt.Printf("daemon %d\n", pid)
	return 0
}

// codexLike is a fake agent that starts the way codex does: at start it
// forks a managed daemon (`codex app-server --managed-daemon`) and a pid-update loop,
// each in a session of its own (setsid), and does not wait for them. It prints
// "daemon <pid>" for each, then "agent ready", then waits for its human forever.
func codexLike([]string) int {
	exe, err := os.Executable()
	if err != nil {
		return 1
	}
	for _, args := range [][]string{{"app-server", "--managed-daemon"}, {"pid-update-loop"}} {
		cmd := exec.Command(exe, append([]string{"agent-daemon"}, args...)...)
		cmd.SysProcAttr = newSessionAttr()
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, "codex-like:", err)
			return 1
		}
		fmt.Printf("daemon %d\n", cmd.Process.Pid)
	}
	fmt.Println("agent ready")
	return forever()
}

// agentDaemon is one of codexLike's daemons: deaf to hang-ups, as daemons are, and
// otherwise idle until it is ended.
func agentDaemon([]string) int {
	signal.Ignore(syscall.SIGHUP)
	return forever()
}
