// Package demo holds Corral's scripted child programs: small behaviours (exit with a
// code, ignore SIGTERM, fork a tree, escape the session, flood output, echo keys) that
// the demo scenario runs and that every process test re-executes, so tests need nothing
// installed. A binary that hosts them (the corral binary, or a test binary from its
// TestMain) calls MaybeChild first; when the environment asks for a child it runs the
// behaviour named by the arguments and exits.
package demo

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// ChildEnv marks a process as a child program: CORRAL_CHILD=1 and the behaviour in argv.
const ChildEnv = "CORRAL_CHILD"

// Child returns the argv that runs behaviour mode with args in this same binary, and the
// environment additions that select child mode. A race-instrumented binary sleeps a
// second at exit by default (GORACE atexit_sleep_ms), which would make every child of a
// -race test binary linger; the addition turns that off and is ignored otherwise.
func Child(mode string, args ...string) (argv []string, env []string) {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	return append([]string{exe, mode}, args...), []string{ChildEnv + "=1", "GORACE=atexit_sleep_ms=0"}
}

// MaybeChild runs the child behaviour named by os.Args[1:] and exits, when the
// environment marks this process as a child. Otherwise it returns at once.
func MaybeChild() {
	if nsInit != nil {
		nsInit()
	}
	if os.Getenv(ChildEnv) != "1" || len(os.Args) < 2 {
		return
	}
	// Only a behaviour's name makes this a child: CORRAL_CHILD=1 left in a user's
	// environment must not turn `corral run …` into "unknown behaviour".
	if _, ok := behaviours[os.Args[1]]; !ok {
		return
	}
	os.Exit(runChild(os.Args[1], os.Args[2:]))
}

// nsInit, where set (Linux), runs this binary as a test PID namespace's init when the
// environment asks for it (pidns_linux.go).
var nsInit func()

// behaviours maps a mode to its program. Each returns the exit code.
var behaviours = map[string]func(args []string) int{
	"exit":         exitWith,
	"sleep":        func([]string) int { return block("sleep") },
	"ignore-term":  func([]string) int { signal.Ignore(syscall.SIGTERM); return block("ignore-term") },
	"ignore-hup":   func([]string) int { signal.Ignore(syscall.SIGHUP); return block("ignore-hup") },
	"silent":       silent,
	"bell":         bell,
	"title-agent":  titleAgent,
	"ctrlc-twice":  ctrlcTwice,
	"tree":         tree,
	"fanout":       fanout,
	"ticker":       ticker,
	"flood":        flood,
	"streams":      streams,
	"split":        split,
	"readline":     readline,
	"keys":         keys,
	"escape":       escape,
	"escapee-mid":  escapeeMid,
	"cat":          catFile,
	"agent":        agent,
	"buildlog":     buildLog,
	"countdown":    countdown,
	"escape-later": escapeLater,
	"cast-play":    castPlay,
	"stream":       stream,
	"daemonize":    daemonize,
	"codex-like":   codexLike,
	"agent-daemon": agentDaemon,
	"sock-daemon":  sockDaemon,
	"sock-serve":   sockServe,
	"sock-client":  sockClient,
}

func runChild(mode string, args []string) int {
	b, ok := behaviours[mode]
	if !ok {
		fmt.Fprintf(os.Stderr, "corral child: unknown behaviour %q\n", mode)
		return 2
	}
	return b(args)
}

// argInt returns args[i] as an int, or def.
func argInt(args []string, i, def int) int {
	if i >= len(args) {
		return def
	}
	n, err := strconv.Atoi(args[i])
	if err != nil {
		return def
	}
	return n
}

func argDur(args []string, i int, def time.Duration) time.Duration {
	if i >= len(args) {
		return def
	}
	d, err := time.ParseDuration(args[i])
	if err != nil {
		return def
	}
	return d
}

// exitWith prints a line and exits with args[0].
func exitWith(args []string) int {
	fmt.Println("bye")
	return argInt(args, 0, 0)
}

// block announces itself ("ready <name> <pid>") and waits for a signal it does not
// ignore; the default action then ends it.
func block(name string) int {
	fmt.Printf("ready %s %d\n", name, os.Getpid())
	return forever()
}

// bell prints a prompt and rings the bell, as an agent waiting for its human does,
// then is silent; each line it reads gets an answer and another bell.
func bell([]string) int {
	fmt.Print("waiting for you\a\n")
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		fmt.Printf("you said %s\a\n", sc.Text())
	}
	return forever()
}

// titleAgent is an agent that says in its title when it works and when it waits, as
// Claude Code and codex do (a Braille spinner leads the title while working), and
// never rings: it works on each line it reads, then waits at its prompt again.
func titleAgent([]string) int {
	fmt.Print("\x1b]0;⠋ agent\a")
	fmt.Print("starting\r\n\x1b]0;✳ agent\aready for you\r\n")
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		fmt.Printf("\x1b]0;⠙ agent\aworking on %s\r\n\x1b]0;✳ agent\adone\r\n", sc.Text())
	}
	return forever()
}

// ctrlcTwice is an agent's exit: the first Ctrl-C (SIGINT from the terminal) says
// "press Ctrl-C again to exit", the second exits.
func ctrlcTwice([]string) int {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGINT)
	fmt.Println("agent ready")
	<-sigs
	fmt.Println("press Ctrl-C again to exit")
	<-sigs
	fmt.Println("bye from the agent")
	return 0
}

// silent prints once, then never again.
func silent([]string) int {
	fmt.Println("started, now silent")
	return forever()
}

// readline prints "ready", reads one line from stdin, prints "got: <line>", and exits 0;
// on EOF without a line it prints "eof" and exits 4.
func readline([]string) int {
	fmt.Println("ready")
	line, err := bufio.NewReader(os.Stdin).ReadString('\n')
	if err != nil && line == "" {
		fmt.Println("eof")
		return 4
	}
	fmt.Printf("got: %s\n", strings.TrimRight(line, "\r\n"))
	return 0
}

// keys [bracketed] [focus] [switch] puts a terminal stdin into raw mode (optionally
// enabling bracketed paste and focus reports), prints "ready", then prints every read
// as "got <hex>" so a test sees exactly the bytes that arrived. With switch, a read
// that holds '+' turns application cursor keys on (DECCKM, as vim and less do) and
// one that holds '-' turns them off, before it is reported. It exits on EOF.
func keys(args []string) int {
	restore := makeRaw(0)
	defer restore()
	var switches bool
	for _, a := range args {
		switch a {
		case "bracketed":
			fmt.Print("\x1b[?2004h") // ask for bracketed paste, as editors and agents do
		case "focus":
			fmt.Print("\x1b[?1004h") // ask for focus reports, as codex does
		case "mouse":
			fmt.Print("\x1b[?1000h\x1b[?1006h") // ask for mouse reports in SGR form, as vim and htop do
		case "switch":
			switches = true
		}
	}
	fmt.Print("ready\r\n")
	buf := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(buf)
		if n > 0 {
			switch {
			case switches && bytes.IndexByte(buf[:n], '+') >= 0:
				fmt.Print("\x1b[?1h\r\n") // on a line of its own: "got" lines start lines
			case switches && bytes.IndexByte(buf[:n], '-') >= 0:
				fmt.Print("\x1b[?1l\r\n")
			}
			fmt.Printf("got %x\r\n", buf[:n])
		}
		if err != nil {
			if err == io.EOF {
				return 0
			}
			return 1
		}
	}
}

// catFile copies a file to stdout, like cat.
func catFile(args []string) int {
	if len(args) == 0 {
		return 2
	}
	f, err := os.Open(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer f.Close()
	if _, err := io.Copy(os.Stdout, f); err != nil {
		return 1
	}
	return 0
}
