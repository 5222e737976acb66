package ui

import (
	"corral/ui/common"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The transcript outside Corral (issue 14.9): in the user's $PAGER (less -R unless
// set), which takes the terminal over with tea.ExecProcess, or saved to a file. Both
// get the history as Corral renders it — text with the SGR Corral writes, never the
// raw bytes — so nothing the run wrote but colour reaches the host terminal.

// defaultPager reads SGR colour (-R) and passes nothing else raw.
const defaultPager = "less -R"

type (
	// pagerFileMsg: the history is written to a temporary file for the pager.
	pagerFileMsg struct {
		path, pager string
		cmd         *exec.Cmd // the pager on path, built here: exec.Command looks sh up
		err         error
	}
	// pagerDoneMsg: the pager exited and its file is gone.
	pagerDoneMsg struct{ err error }
	// savedMsg: the history is saved to path (lines of plain text).
	savedMsg struct {
		path  string
		lines int
		err   error
	}
)

// TranscriptKey handles the scroll-mode keys of this file and copy mode's: a command
// and a notice for the status line; false for the other keys.
func (t *Terminal) TranscriptKey(k tea.KeyPressMsg, inTmux bool) (tea.Cmd, string, bool) {
	km := t.c.Keys.ScrollKeyMap
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
			return pagerFileMsg{err: err}
		}
		err = writeLines(f, lines, HistLine.Styled)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name()) // half written: of no use
			return pagerFileMsg{err: err}
		}
		// The pager command line is the user's, as a shell reads $PAGER; the file is an
		// argument, never part of the command text.
		c := exec.Command("sh", "-c", pager+` "$1"`, "sh", f.Name())
		c.Env = pagerEnv(os.Environ())
		return pagerFileMsg{path: f.Name(), pager: pager, cmd: c}
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
func runPager(msg pagerFileMsg) tea.Cmd {
	return tea.ExecProcess(msg.cmd, func(err error) tea.Msg {
		os.Remove(msg.path)
		return pagerDoneMsg{err: err}
	})
}

// saveCmd writes the history as plain text to corral-<name>-<id>.txt in the current
// directory.
func saveCmd(lines []HistLine, name, id string) tea.Cmd {
	return func() tea.Msg {
		dir, err := os.Getwd()
		if err != nil {
			return savedMsg{err: err}
		}
		path := filepath.Join(dir, "corral-"+safeName(name)+"-"+id+".txt")
		f, err := os.Create(path)
		if err != nil {
			return savedMsg{err: err}
		}
		err = writeLines(f, lines, func(l HistLine) string { return l.Text })
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return savedMsg{path: path, lines: len(lines), err: err}
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

// transcriptFileResult takes the pager's and the save's results: the pager to run,
// and a notice for the status line.
func transcriptFileResult(msg tea.Msg) (tea.Cmd, string) {
	switch msg := msg.(type) {
	case pagerFileMsg:
		if msg.err != nil {
			return nil, "pager: " + common.Clean(msg.err.Error())
		}
		return runPager(msg), ""
	case pagerDoneMsg:
		if msg.err != nil {
			return nil, "pager: " + common.Clean(msg.err.Error())
		}
	case savedMsg:
		if msg.err != nil {
			return nil, "save: " + common.Clean(msg.err.Error())
		}
		return nil, fmt.Sprintf("saved to %s (%d lines)", common.Clean(msg.path), msg.lines) // the path first: it is what a narrow status line must keep
	}
	return nil, ""
}
