// Package demo holds Corral's scripted child programs: small behaviours (exit with a
// code, ignore SIGTERM, fork a tree, escape the session, flood output, echo keys) that
// the demo scenario runs and that every process test re-executes, so tests need nothing
// installed. A binary that hosts them (the corral binary, or a test binary from its
// TestMain) calls MaybeChild first; when the environment asks for a child it runs the
// behaviour named by the arguments and exits.
package demo

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
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
	// environment must not turn `corral run …` into "unknown behaviour" (issue 15).
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

// ticker [interval] [count]: prints "tick i" every interval, then exits 0.
func ticker(args []string) int {
	every := argDur(args, 0, 100*time.Millisecond)
	n := argInt(args, 1, 10)
	for i := 0; i < n; i++ {
		fmt.Printf("tick %d\n", i)
		time.Sleep(every)
	}
	return 0
}

// flood [bytes]: writes that many bytes of numbered text lines as fast as it can.
func flood(args []string) int {
	total := argInt(args, 0, 1<<20)
	w := bufio.NewWriterSize(os.Stdout, 64<<10)
	for i, n := 0, 0; n < total; i++ {
		line := fmt.Sprintf("%08d the quick brown fox jumps over the lazy dog\n", i)
		if n+len(line) > total {
			line = line[:total-n]
		}
		w.WriteString(line)
		n += len(line)
	}
	if err := w.Flush(); err != nil {
		return 1
	}
	return 0
}

// stream [bytes-per-second]: prints coloured log lines (an SGR every word or two, as
// loggers and test runners do) at that rate, 100 KB/s by default, in 10 ms slices,
// until it is stopped. The streaming benchmark (issue 6) runs ten of them.
func stream(args []string) int {
	rate := argInt(args, 0, 100_000)
	const slice = 10 * time.Millisecond
	start := time.Now()
	var buf []byte
	sent := 0
	for i := 0; ; {
		due := int(float64(rate) * time.Since(start).Seconds())
		for buf = buf[:0]; sent+len(buf) < due; i++ {
			buf = fmt.Appendf(buf, "\x1b[2m%s\x1b[0m \x1b[1;3%dm%-5s\x1b[0m \x1b[36mworker-%d\x1b[0m handled \x1b[38;5;%dmGET /api/items/%d\x1b[0m in \x1b[33m%d ms\x1b[0m\n",
				start.Add(time.Duration(i)*time.Millisecond).Format("15:04:05.000"), 1+i%6,
				[]string{"INFO", "WARN", "DEBUG"}[i%3], i%8, 16+i%216, i, i%97)
		}
		if _, err := os.Stdout.Write(buf); err != nil {
			return 1
		}
		sent += len(buf)
		time.Sleep(slice)
	}
}

// streams writes interleaved lines to stdout and stderr, then exits 3.
func streams([]string) int {
	for i := 0; i < 3; i++ {
		fmt.Fprintf(os.Stdout, "out %d\n", i)
		fmt.Fprintf(os.Stderr, "err %d\n", i)
	}
	return 3
}

// SplitPieces is what the split behaviour writes, one piece per write with a pause
// between, so UTF-8 sequences and escape sequences arrive split across reads.
var SplitPieces = []string{
	"caf\xc3", "\xa9 ", "\xe2\x82", "\xac ", "\xf0\x9f", "\x98", "\x80 ",
	"\x1b[3", "1mred\x1b", "[0m ", "\x1b]0;ti", "tle\x07", "end\n",
}

func split([]string) int {
	for _, p := range SplitPieces {
		os.Stdout.WriteString(p)
		time.Sleep(15 * time.Millisecond)
	}
	return 0
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

// keys [bracketed] puts a terminal stdin into raw mode (optionally enabling bracketed
// paste), prints "ready", then prints every read as "got <hex>" so a test sees exactly
// the bytes that arrived. It exits on EOF.
func keys(args []string) int {
	restore := makeRaw(0)
	defer restore()
	if len(args) > 0 && args[0] == "bracketed" {
		fmt.Print("\x1b[?2004h") // ask for bracketed paste, as editors and agents do
	}
	fmt.Print("ready\r\n")
	buf := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(buf)
		if n > 0 {
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
	exe, err := os.Executable()
	if err != nil {
		return 1
	}
	cmd := exec.Command(exe, "sleep")
	cmd.SysProcAttr = newSessionAttr()
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "escapee:", err)
		return 1
	}
	fmt.Println(cmd.Process.Pid)
	return 0
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

// daemonize starts a sleeper in its own session (the caller starts this behaviour
// with setsid, as a classic daemonizer calls it), prints "daemon <pid>" and exits,
// leaving the sleeper alone in the session. The pid-reuse tests (issue 15.1) give this
// process a recycled run root's pid, so the session carries the dead root's number.
func daemonize([]string) int {
	exe, err := os.Executable()
	if err != nil {
		return 1
	}
	cmd := exec.Command(exe, "sleep")
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "daemonize:", err)
		return 1
	}
	fmt.Printf("daemon %d\n", cmd.Process.Pid)
	return 0
}

// codexLike is a fake agent that starts the way codex does (issue 14.1): at start it
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
