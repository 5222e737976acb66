package terminal

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"corral/ui/common"
	"corral/ui/frame"
)

// The transcript outside Corral: in the user's $PAGER (less -R unless
// set), which takes the terminal over with frame.ExecProcess, or saved to a file. Both
// get the history as Corral renders it — text with the SGR Corral writes, never the
// raw bytes — so nothing the run wrote but colour reaches the host terminal.

// defaultPager reads SGR colour (-R) and passes nothing else raw.
const defaultPager = "less -R"

type (
	// PagerFileMsg: the history is written to a temporary file for the pager.
	PagerFileMsg struct {
		Path, Pager string
		Cmd         *exec.Cmd // the pager on Path, built here: exec.Command looks sh up
		Err         error
	}
	// PagerDoneMsg: the pager exited and its file is gone.
	PagerDoneMsg struct{ Err error }
	// SavedMsg: the history is saved to Path (Lines lines of plain text).
	SavedMsg struct {
		Path  string
		Lines int
		Err   error
	}
)

// FileMsg is the pager's and the save's messages, which the root hands to FileResult.
type FileMsg interface{ fileMsg() }

func (PagerFileMsg) fileMsg() {}
func (PagerDoneMsg) fileMsg() {}
func (SavedMsg) fileMsg()     {}

// TranscriptKey handles the scroll-mode keys of this file and copy mode's: a command
// and a notice for the status line; false for the other keys.
func (t *Terminal) TranscriptKey(k tea.KeyPressMsg, inTmux bool) (tea.Cmd, string, bool) {
	km := *t.keys
	if t.Copying() {
		cmd, notice := t.copyKey(k, inTmux)
		return cmd, notice, true
	}
	lines, ok := t.History()
	switch {
	case key.Matches(k, km.CopyMode):
		if !t.StartCopy() {
			return nil, "copy: no transcript yet", true
		}
	case key.Matches(k, km.Pager) && ok:
		return pagerCmd(lines), "", true
	case key.Matches(k, km.Save) && ok:
		return saveCmd(lines, t.info.Name, t.ID()), "", true
	default:
		return nil, "", false
	}
	return nil, "", true
}

// pagerCmd writes the history, with its colours, to a temporary file for the pager.
func pagerCmd(lines []HistLine) tea.Cmd {
	return func() tea.Msg {
		pager := os.Getenv("PAGER")
		if strings.TrimSpace(pager) == "" {
			pager = defaultPager
		}
		f, err := os.CreateTemp("", "corral-transcript-*.txt")
		if err != nil {
			return PagerFileMsg{Err: err}
		}
		err = writeLines(f, lines, HistLine.Styled)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name()) // half written: of no use
			return PagerFileMsg{Err: err}
		}
		// The pager command line is the user's, as a shell reads $PAGER; the file is an
		// argument, never part of the command text.
		c := exec.Command("sh", "-c", pager+` "$1"`, "sh", f.Name())
		c.Env = pagerEnv(os.Environ())
		return PagerFileMsg{Path: f.Name(), Pager: pager, Cmd: c}
	}
}

// pagerEnv is the pager's environment: LESS=R when the user has no LESS of their own,
// as git sets LESS=FRX, so a PAGER=less shows the file's colours instead of asking
// whether it is binary (review).
func pagerEnv(env []string) []string {
	for _, kv := range env {
		if strings.HasPrefix(kv, "LESS=") {
			return env
		}
	}
	return append(env, "LESS=R")
}

// runPager hands the terminal to the pager on the file; the file goes when it exits.
func runPager(msg PagerFileMsg) tea.Cmd {
	return frame.ExecProcess(msg.Cmd, func(err error) tea.Msg {
		os.Remove(msg.Path)
		return PagerDoneMsg{Err: err}
	})
}

// saveCmd writes the history as plain text to corral-<name>-<id>.txt in the current
// directory.
func saveCmd(lines []HistLine, name, id string) tea.Cmd {
	return func() tea.Msg {
		dir, err := os.Getwd()
		if err != nil {
			return SavedMsg{Err: err}
		}
		path := filepath.Join(dir, "corral-"+safeName(name)+"-"+id+".txt")
		f, err := os.Create(path)
		if err != nil {
			return SavedMsg{Err: err}
		}
		err = writeLines(f, lines, func(l HistLine) string { return l.Text })
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return SavedMsg{Path: path, Lines: len(lines), Err: err}
	}
}

// safeName keeps a run's name to characters a file name can hold everywhere.
func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}

func writeLines(f *os.File, lines []HistLine, text func(HistLine) string) error {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(text(l))
		b.WriteByte('\n')
	}
	_, err := f.WriteString(b.String())
	return err
}

// FileResult takes the pager's and the save's results: the pager to run, and a
// notice for the status line.
func FileResult(msg FileMsg) (tea.Cmd, string) {
	switch msg := msg.(type) {
	case PagerFileMsg:
		if msg.Err != nil {
			return nil, "pager: " + common.Clean(msg.Err.Error())
		}
		return runPager(msg), ""
	case PagerDoneMsg:
		if msg.Err != nil {
			return nil, "pager: " + common.Clean(msg.Err.Error())
		}
	case SavedMsg:
		if msg.Err != nil {
			return nil, "save: " + common.Clean(msg.Err.Error())
		}
		return nil, fmt.Sprintf("saved to %s (%d lines)", common.Clean(msg.Path), msg.Lines) // the path first: it is what a narrow status line must keep
	}
	return nil, ""
}
