package demo

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"time"
)

// A daemon runs share, as codex's app-server is shared by every codex of one
// CODEX_HOME: sock-daemon starts it, sock-client uses it.

// sockDaemon PATH starts a daemon out of its session (setsid) that answers "pong" to
// every line on a unix socket at PATH, prints "daemon <pid>" once it listens, and
// blocks.
func sockDaemon(args []string) int {
	if len(args) == 0 {
		return 2
	}
	exe, err := os.Executable()
	if err != nil {
		return 1
	}
	cmd := exec.Command(exe, "sock-serve", args[0])
	cmd.SysProcAttr = newSessionAttr()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "sock-daemon:", err)
		return 1
	}
	line, _ := bufio.NewReader(out).ReadString('\n') // "listening": it is up
	fmt.Printf("daemon %d %s", cmd.Process.Pid, line)
	return forever()
}

// sockServe PATH listens on PATH and answers pings, for ever.
func sockServe(args []string) int {
	ln, err := net.Listen("unix", args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, "sock-serve:", err)
		return 1
	}
	fmt.Println("listening")
	os.Stdout.Close() // the starter's pipe: it may go away
	for {
		c, err := ln.Accept()
		if err != nil {
			return 1
		}
		go func() {
			sc := bufio.NewScanner(c)
			for sc.Scan() {
				fmt.Fprintln(c, "pong")
			}
			c.Close()
		}()
	}
}

// sockClient PATH connects to PATH and pings every 100 ms, printing "pong N" for each
// answer; a lost connection prints "lost" and exits 1.
func sockClient(args []string) int {
	c, err := net.Dial("unix", args[0])
	if err != nil {
		fmt.Println("lost:", err)
		return 1
	}
	r := bufio.NewReader(c)
	for n := 1; ; n++ {
		if _, err := fmt.Fprintln(c, "ping"); err != nil {
			fmt.Println("lost:", err)
			return 1
		}
		if _, err := r.ReadString('\n'); err != nil {
			fmt.Println("lost:", err)
			return 1
		}
		fmt.Printf("pong %d\n", n)
		time.Sleep(100 * time.Millisecond)
	}
}
