package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/config"
	"corral/demo"
	"corral/demo/export"
	"corral/runs"
	"corral/ui/common"
)

// The export key writes the selected run's recording (its asciicast; under corral
// replay, the recording played) as a GIF with export's defaults, to
// corral-<name>-<id>.gif in the current directory, as the transcript's save does, and
// the status line says where it went. The export runs as a command: a long recording
// takes a while, and the UI goes on meanwhile; the key pressed again before it is
// done says so rather than write the same file twice at once.

// ExportedMsg reports an export: where it went, or why not.
type ExportedMsg struct {
	name   string // the file's name, being written until this message (state.exporting)
	Path   string
	Result export.Result
	Err    error
}

func (msg ExportedMsg) notice() string {
	switch {
	case msg.Err != nil:
		return common.Clean("export: " + msg.Err.Error())
	case msg.Result.Stopped != nil:
		return common.Clean(fmt.Sprintf("exported to %s (%d frames); %v", msg.Path, msg.Result.Frames, msg.Result.Stopped))
	}
	return common.Clean(fmt.Sprintf("exported to %s (%d frames, %s)", msg.Path, msg.Result.Frames,
		msg.Result.Duration.Round(time.Second)))
}

// recordingOf is the recording the export key exports for run sel: under corral
// replay the one its player plays, else its own ("" for a pipe run).
func recordingOf(sel runs.Info, replay bool) string {
	if p := demo.PlayedCast(sel.Spec.Argv); replay && p != "" {
		return p
	}
	return sel.Cast
}

// exportRun starts the export of the selected run's recording.
func (m Model) exportRun() (tea.Model, tea.Cmd) {
	sel, ok := m.list.Selected()
	if !ok {
		return m.note("export: no run selected")
	}
	src := recordingOf(sel, m.replay)
	switch {
	case src == "":
		return m.note("export: %s has no recording: only PTY runs are recorded", sel.Name)
	case sel.Host != "" && sel.Host != config.LocalHost:
		return m.note("export: %s's recording is on %s: corral export there", sel.Name, sel.Host)
	}
	name := "corral-" + fileName(sel.Name) + "-" + sel.ID + ".gif"
	if m.exporting[name] {
		return m.note("export: %s is still being written", name)
	}
	if m.exporting == nil {
		m.exporting = map[string]bool{}
	}
	m.exporting[name] = true
	m.flash = "exporting " + common.Clean(sel.Name) + "…"
	return m, func() tea.Msg {
		dir, err := os.Getwd()
		if err != nil {
			return ExportedMsg{name: name, Err: err}
		}
		path := filepath.Join(dir, name)
		o := export.Options{Timing: export.Timing{Speed: 1, FPS: export.DefaultFPS, Hold: export.DefaultHold}}
		res, err := export.File(src, path, o)
		return ExportedMsg{name: name, Path: path, Result: res, Err: err}
	}
}

// fileName keeps a run's name to characters a file name can hold everywhere.
func fileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, s)
}
