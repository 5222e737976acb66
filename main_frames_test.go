package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The outer terminal's modes as tmux holds them for the pane: alternate screen,
// mouse (button, any, SGR), cursor shown.
func (x *tmuxTerm) modes() string {
	return strings.TrimSpace(x.run("display-message", "-p", "-t", "t",
		"alt=#{alternate_on} mouse=#{mouse_button_flag}#{mouse_any_flag}#{mouse_sgr_flag} cursor=#{cursor_flag}"))
}

// The UI draws its own frames (package ui/frame): the outer terminal is left sane
// around a pager and after quitting. The pager and the shell after Corral read back
// the terminal's line discipline (icanon: cooked, as a shell needs it), and tmux the
// pane's modes.
func TestFramesTerminalSaneAroundPagerAndQuit(t *testing.T) {
	state := t.TempDir()
	pager := filepath.Join(t.TempDir(), "pager")
	script := "#!/bin/sh\nclear; echo PAGER-UP $(stty -a | tr ' ;' '\\n\\n' | grep -x -- '-*icanon'); read answer; echo \"PAGER-GOT $answer\"\n"
	if err := os.WriteFile(pager, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	toml := "[[run]]\nname = \"lines\"\npty = true\ncmd = \"for i in $(seq 1 30); do echo line-$i; done; sleep 600\"\n"
	after := "r=$?; echo SHELL $(stty -a | tr ' ;' '\\n\\n' | grep -x -- '-*icanon'); (exit $r)"
	x := startTmux(t, 120, 40, fmt.Sprintf("env PAGER=%s CORRAL_STATE_DIR=%s %s --local --config %s; %s",
		pager, state, corralBin, writeConfig(t, toml), after))
	x.waitFor(`(?s)lines\s+pty\s+running.*line-30`, 20*time.Second)
	ui := x.modes()
	if !strings.HasPrefix(ui, "alt=1 ") || !strings.HasSuffix(ui, "cursor=0") && !strings.HasSuffix(ui, "cursor=1") {
		t.Fatalf("the UI is not on the alternate screen: %s", ui)
	}

	x.keys("PPage")
	x.waitFor(`SCROLL`, 10*time.Second)
	x.keys("o")
	x.waitFor(`PAGER-UP icanon`, 10*time.Second) // cooked: Corral gave raw mode back
	if m := x.modes(); m != "alt=0 mouse=000 cursor=1" {
		t.Errorf("the pager got the terminal with Corral's modes on: %s", m)
	}
	x.text("typed")
	x.keys("Enter")
	x.waitFor(`SCROLL`, 10*time.Second) // the UI is back, redrawn in full
	if m := x.modes(); m != ui {
		t.Errorf("after the pager the modes are %s, want the UI's %s again", m, ui)
	}
	x.waitFor(`lines\s+pty\s+running`, 10*time.Second)

	x.keys("Escape")
	x.keys("q")
	x.answer(`1 live run\(s\) will be ended`, "y")
	screen := x.waitFor(`CORRAL-EXIT=0`, 60*time.Second)
	if !strings.Contains(screen, "SHELL icanon") {
		t.Errorf("the shell after Corral did not get a cooked terminal:\n%s", screen)
	}
	if m := x.modes(); m != "alt=0 mouse=000 cursor=1" {
		t.Errorf("after quitting the outer terminal's modes are %s", m)
	}
	assertNothingLeft(t, state)
}
