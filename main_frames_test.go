package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/ui/frame"
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

// cooked types a line into the shell in the pane that prints whether its terminal's
// line discipline is cooked (icanon) or raw (-icanon), tagged, and returns the answer.
func (x *tmuxTerm) cooked(tag string) string {
	x.text(fmt.Sprintf("stty -a | tr ' ;' '\\n\\n' | grep -x -- '-*icanon' | sed 's/^/%s-/'", tag))
	x.keys("Enter")
	screen := x.waitFor(`(?m)^`+tag+`-\S+`, 10*time.Second)
	return regexp.MustCompile(`(?m)^` + tag + `-(\S+)`).FindStringSubmatch(screen)[1]
}

// A run in the foreground (corral run --pty) has Corral's terminal in raw mode while it
// runs and gives it back cooked when it ends.
func TestFramesTerminalSaneAfterForegroundRun(t *testing.T) {
	state := t.TempDir()
	after := "r=$?; echo SHELL $(stty -a | tr ' ;' '\\n\\n' | grep -x -- '-*icanon'); (exit $r)"
	x := startTmux(t, 120, 40, fmt.Sprintf("env CORRAL_STATE_DIR=%s %s run --pty -- sh -c 'echo FG-UP; read answer; echo FG-GOT $answer'; %s",
		state, corralBin, after))
	x.waitFor(`FG-UP`, 20*time.Second)
	x.text("typed")
	x.keys("Enter")
	screen := x.waitFor(`CORRAL-EXIT=0`, 30*time.Second)
	if !strings.Contains(screen, "FG-GOT typed") {
		t.Errorf("the run did not read the line typed:\n%s", screen)
	}
	if !strings.Contains(screen, "SHELL icanon") {
		t.Errorf("the shell after the run did not get a cooked terminal:\n%s", screen)
	}
	if m := x.modes(); m != "alt=0 mouse=000 cursor=1" {
		t.Errorf("after the run the outer terminal's modes are %s", m)
	}
	assertNothingLeft(t, state)
}

// framePanicEnv makes the test binary a program drawn by ui/frame that panics: in
// Update on key u, in a command of a tea.Sequence on key s.
const framePanicEnv = "CORRAL_TEST_FRAME_PANIC"

// framePanicRole is the role, when the environment asks for it: it exits when the
// program ends.
func framePanicRole() {
	if os.Getenv(framePanicEnv) == "" {
		return
	}
	_, err := frame.NewProgram(panicky{}).Run()
	fmt.Println("PROGRAM-ENDED", err)
	os.Exit(0)
}

type panicky struct{}

func (panicky) Init() tea.Cmd { return nil }

func (panicky) View() tea.View {
	v := tea.View{AltScreen: true, ReportFocus: true, MouseMode: tea.MouseModeCellMotion, WindowTitle: "panicky",
		Content: "PANICKY-UP: \x1b[30mA\x1b[38;5;16mB"}
	v.Cursor = tea.NewCursor(3, 0)
	v.Cursor.Shape = tea.CursorBar
	return v
}

func (p panicky) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	switch {
	case ok && k.String() == "u":
		panic("update-boom")
	case ok && k.String() == "s":
		return p, tea.Sequence(func() tea.Msg { return nil }, func() tea.Msg { panic("sequence-boom") })
	}
	return p, nil
}

// A panic, in Update or in a command of a sequence, gives the terminal back before it
// is printed: the panic on the main screen, the shell after it cooked, the modes off.
func TestFramesTerminalSaneAfterPanic(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ key, says string }{{"u", "update-boom"}, {"s", "sequence-boom"}} {
		after := "r=$?; echo SHELL $(stty -a | tr ' ;' '\\n\\n' | grep -x -- '-*icanon'); (exit $r)"
		// Under -race, Bubble Tea's shutdown after a panic closes its input reader's file
		// while the reader goroutine still asks it for its descriptor (in
		// muesli/cancelreader, not Corral's code): that report goes to a file, so it
		// does not push the panic out of the pane's history, and any other race fails.
		races := filepath.Join(t.TempDir(), "race")
		x := startTmux(t, 100, 30, fmt.Sprintf("env GORACE=log_path=%s %s=1 %s; %s", races, framePanicEnv, self, after))
		x.waitFor(`PANICKY-UP`, 20*time.Second)
		if m := x.modes(); !strings.HasPrefix(m, "alt=1 mouse=1") {
			t.Fatalf("the program's modes are not on: %s", m)
		}
		x.keys(c.key)
		x.waitFor(`CORRAL-EXIT=`, 20*time.Second)
		screen := x.run("capture-pane", "-p", "-t", "t", "-S", "-") // the trace scrolled
		if !strings.Contains(screen, c.says) {
			t.Errorf("%s: the panic was not printed on the main screen:\n%s", c.key, screen)
		}
		if !strings.Contains(screen, "SHELL icanon") {
			t.Errorf("%s: the shell after the panic did not get a cooked terminal:\n%s", c.key, screen)
		}
		if m := x.modes(); m != "alt=0 mouse=000 cursor=1" {
			t.Errorf("%s: after the panic the outer terminal's modes are %s", c.key, m)
		}
		reports, _ := filepath.Glob(races + ".*")
		for _, f := range reports {
			b, _ := os.ReadFile(f)
			for _, r := range strings.Split(string(b), "WARNING: DATA RACE")[1:] {
				if !strings.Contains(r, "cancelreader.(*epollCancelReader)") {
					t.Errorf("%s: a data race after the panic:\n%s", c.key, r)
				}
			}
		}
	}
}
