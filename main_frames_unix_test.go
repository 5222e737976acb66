//go:build !windows

package main

import (
	"fmt"
	"syscall"
	"testing"
	"time"
)

// Stopped from its shell (SIGTSTP: job control, kill -TSTP) the UI gives the terminal
// back before it stops, as it was (cooked, the main screen, no mouse, the cursor
// shown), and takes it again, redrawn in full, on fg.
func TestFramesTerminalSaneAroundStopAndFg(t *testing.T) {
	state := t.TempDir()
	toml := "[[run]]\nname = \"lines\"\npty = true\ncmd = \"for i in $(seq 1 30); do echo line-$i; done; sleep 600\"\n"
	x := startTmux(t, 120, 40, "env PS1='PROMPT> ' bash --norc --noprofile -i")
	x.waitFor(`PROMPT>`, 10*time.Second)
	x.text(fmt.Sprintf("env CORRAL_STATE_DIR=%s %s --local --config %s", state, corralBin, writeConfig(t, toml)))
	x.keys("Enter")
	x.waitFor(`(?s)lines\s+pty\s+running.*line-30`, 20*time.Second)
	ui := x.modes()
	pid := 0
	for _, p := range x.paneProcs() {
		if p.Comm == "corral" {
			pid = p.PID
		}
	}
	if pid == 0 {
		t.Fatalf("no corral in the pane: %v", x.paneProcs())
	}

	for round := range 2 {
		if err := syscall.Kill(pid, syscall.SIGTSTP); err != nil {
			t.Fatal(err)
		}
		x.waitFor(`Stopped`, 10*time.Second)
		if m := x.modes(); m != "alt=0 mouse=000 cursor=1" {
			t.Errorf("round %d: stopped, the UI left the shell the terminal with its modes on: %s", round, m)
		}
		if got := x.cooked(fmt.Sprintf("STOPPED%d", round)); got != "icanon" {
			t.Errorf("round %d: stopped, the UI left the shell a %s terminal", round, got)
		}
		x.run("clear-history", "-t", "t")
		x.keys("C-l")
		x.text("fg")
		x.keys("Enter")
		x.waitFor(`(?s)lines\s+pty\s+running.*line-30`, 10*time.Second) // redrawn in full
		if m := x.modes(); m != ui {
			t.Errorf("round %d: after fg the modes are %s, want the UI's %s again", round, m, ui)
		}
	}

	x.keys("q")
	x.answer(`1 live run\(s\) will be ended`, "y")
	x.waitFor(`(?m)^PROMPT>$`, 60*time.Second)
	if got := x.cooked("AFTER"); got != "icanon" {
		t.Errorf("after quitting the shell got a %s terminal", got)
	}
	if m := x.modes(); m != "alt=0 mouse=000 cursor=1" {
		t.Errorf("after quitting the outer terminal's modes are %s", m)
	}
	assertNothingLeft(t, state)
}
