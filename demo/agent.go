package demo

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"time"
)

// agent imitates an AI coding agent in a terminal: full-screen redraws in colour, a
// spinner while it "thinks", and a prompt that waits for the user — ringing the bell
// and sending a desktop notification (OSC 9), as real agents do — then answers what
// was typed. Its first task asks for permission to run a command first, as real
// agents do before they run one. It enables bracketed paste and accepts pasted
// text. It exits on "exit". Its rules (agent.toml) tell Corral its state.
func agent([]string) int {
	restore := makeRaw(0)
	defer restore()
	a := &agentUI{out: os.Stdout}
	a.printf("\x1b[?1049h\x1b[?2004h") // alternate screen, bracketed paste
	defer a.printf("\x1b[?2004l\x1b[?1049l")
	a.think("reading the repository", 2*time.Second)
	a.history = append(a.history, "I looked around. What should I do?")
	for {
		line, ok := a.prompt()
		if !ok || line == "exit" {
			return 0
		}
		a.history = append(a.history, "› "+line)
		a.think("working on it", 1500*time.Millisecond)
		if !a.asked {
			a.asked = true
			if !a.ask("go test ./...") {
				a.history = append(a.history, "Not running it, then. What should I do instead?")
				continue
			}
			a.think("running go test ./...", 1500*time.Millisecond)
		}
		a.history = append(a.history, fmt.Sprintf("Done: %q (%d chars). Anything else?", line, len([]rune(line))))
	}
}

type agentUI struct {
	out     *os.File
	history []string
	input   []rune
	asked   bool // the permission question was asked (once, on the first task)
}

// ask shows a permission question for command and waits for its answer: y or Enter
// is yes, n or Escape no.
func (a *agentUI) ask(command string) bool {
	a.frame(fmt.Sprintf("\x1b[1mfake-agent wants to run:\x1b[0m %s\r\n\r\n Allow?\r\n \x1b[7m 1. Yes (y) \x1b[0m\r\n   2. No (n)", command))
	a.printf("\a")
	buf := make([]byte, 64)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return false
		}
		for _, c := range buf[:n] {
			switch c {
			case 'y', 'Y', '\r', '\n':
				return true
			case 'n', 'N', 0x1b:
				return false
			}
		}
	}
}

func (a *agentUI) printf(format string, args ...any) { fmt.Fprintf(a.out, format, args...) }

// frame redraws the whole screen: a title bar, the conversation, a status line.
func (a *agentUI) frame(status string) {
	var b strings.Builder
	b.WriteString("\x1b[H\x1b[2J")
	b.WriteString("\x1b[1;37;44m ✻ fake-agent \x1b[0m \x1b[2mdemo of a full-screen agent\x1b[0m\r\n\r\n")
	start := max(0, len(a.history)-12)
	for _, h := range a.history[start:] {
		if strings.HasPrefix(h, "›") {
			fmt.Fprintf(&b, "\x1b[36m%s\x1b[0m\r\n", h)
		} else {
			fmt.Fprintf(&b, "\x1b[32m●\x1b[0m %s\r\n", h)
		}
	}
	fmt.Fprintf(&b, "\r\n%s", status)
	a.printf("%s", b.String())
}

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// think shows a spinner for d.
func (a *agentUI) think(what string, d time.Duration) {
	end := time.Now().Add(d)
	for i := 0; time.Now().Before(end); i++ {
		a.frame(fmt.Sprintf("\x1b[33m%s\x1b[0m %s… \x1b[2m(%d tokens)\x1b[0m", spinner[i%len(spinner)], what, 40*i+rand.IntN(40)))
		time.Sleep(80 * time.Millisecond)
	}
}

// prompt waits for a line, echoing what is typed; pasted text arrives bracketed.
func (a *agentUI) prompt() (string, bool) {
	a.input = a.input[:0]
	a.drawPrompt()
	a.printf("\a\x1b]9;fake-agent is waiting for you\x07")
	buf := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(buf)
		if err != nil {
			return "", false
		}
		if line, done := a.keys(buf[:n]); done {
			return line, true
		}
		a.drawPrompt()
	}
}

func (a *agentUI) drawPrompt() {
	a.frame(fmt.Sprintf("\x1b[1m›\x1b[0m %s\x1b[7m \x1b[0m", string(a.input)))
}

// keys applies typed bytes to the input line; Enter (CR) ends it.
func (a *agentUI) keys(p []byte) (string, bool) {
	p = bytes.ReplaceAll(p, []byte("\x1b[200~"), nil)
	p = bytes.ReplaceAll(p, []byte("\x1b[201~"), nil)
	for _, r := range string(p) {
		switch r {
		case '\r', '\n':
			return strings.TrimSpace(string(a.input)), true
		case 0x7f, 0x08:
			if len(a.input) > 0 {
				a.input = a.input[:len(a.input)-1]
			}
		case 0x03:
			a.input = a.input[:0]
		default:
			if r >= 0x20 {
				a.input = append(a.input, r)
			}
		}
	}
	return "", false
}

// buildLog imitates a chatty build on pipes: progress lines on stdout, warnings on
// stderr, for about args[0] (default 30s), then success.
func buildLog(args []string) int {
	d := argDur(args, 0, 30*time.Second)
	steps := int(d / (150 * time.Millisecond))
	pkgs := []string{"runs", "ptyhost", "reaper", "watchdog", "config", "ui", "demo"}
	for i := 1; i <= steps; i++ {
		pkg := pkgs[i%len(pkgs)]
		fmt.Printf("[%3d/%d] compile %s/file%02d.go\n", i, steps, pkg, i%17)
		if i%9 == 0 {
			fmt.Fprintf(os.Stderr, "warning: %s/file%02d.go:%d: unused variable\n", pkg, i%17, 10+i%50)
		}
		time.Sleep(150 * time.Millisecond)
	}
	fmt.Println("build ok")
	return 0
}

// countdown N CODE: counts down once a second, then exits with CODE.
func countdown(args []string) int {
	n := argInt(args, 0, 5)
	for i := n; i > 0; i-- {
		fmt.Printf("failing in %d…\n", i)
		time.Sleep(time.Second)
	}
	fmt.Fprintln(os.Stderr, "error: something went wrong")
	return argInt(args, 1, 1)
}

// escapeLater DUR: runs quietly for DUR, then starts a daemon in a session of its own
// (setsid), as agents' managed daemons do, and prints "escapee <pid>". The daemon stays
// its child, so the escape scan sees where it came from even with other runs live; a
// double fork reparented to Corral before any scan saw it could only be attributed
// while this is the one live run, and the demo has several.
func escapeLater(args []string) int {
	fmt.Println("about to daemonize…")
	time.Sleep(argDur(args, 0, 5*time.Second))
	pid, err := startSleeper(true)
	if err != nil {
		fmt.Fprintln(os.Stderr, "escape-later:", err)
		return 1
	}
	fmt.Printf("escapee %d\n", pid)
	return forever()
}
