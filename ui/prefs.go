package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"
)

// Prefs are the UI's choices remembered per state dir: the next corral or
// corral attach of that state dir opens the way the last one was left. They live in
// <state dir>/ui.json, beside the runs they are about, not in the user's config: two
// sessions (state dirs) can be set up differently. Zoom is not remembered: it is a
// look at one run, not a setup.
type Prefs struct {
	// Panes is which side panes show beside the terminal pane: "all" (run list,
	// details, events) or "list" (the run list alone). Unknown is "all".
	Panes string `json:"panes"`
	// RestoreAsked are the lost runs the UI has asked to restore (sorted; those still
	// offered when it last asked): the question is asked once for each, whatever the
	// answer, and again only about others another reboot lost.
	RestoreAsked []string `json:"restore_asked,omitempty"`
}

// PrefsFile is the name of the prefs file in a state dir.
const PrefsFile = "ui.json"

// maxPrefs caps what LoadPrefs reads: the file is a few bytes.
const maxPrefs = 4 << 10

// LoadPrefs reads the prefs file at path. A missing, unreadable or malformed file is
// the defaults (with its error, for a warning): a preference never stops the UI.
func LoadPrefs(path string) (Prefs, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return Prefs{}, nil
	case err != nil:
		return Prefs{}, err
	case !fi.Mode().IsRegular(): // a link or FIFO planted in the state dir is not followed
		return Prefs{}, fmt.Errorf("%s: not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return Prefs{}, err
	}
	defer f.Close()
	var p Prefs
	if err := json.NewDecoder(io.LimitReader(f, maxPrefs)).Decode(&p); err != nil {
		return Prefs{}, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// SavePrefs writes the prefs file at path whole or not at all (a temporary file
// renamed over it), so a UI killed mid-write leaves the old choice.
func SavePrefs(path string, p Prefs) error {
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".ui-*.json")
	if err != nil {
		return err
	}
	_, werr := f.Write(append(b, '\n'))
	cerr := f.Close()
	if err = errors.Join(werr, cerr); err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// PrefsSavedMsg reports a SavePrefs; a failure goes to the events pane.
type PrefsSavedMsg struct{ Err error }

func savePrefsCmd(path string, p Prefs) tea.Cmd {
	if path == "" {
		return nil
	}
	return func() tea.Msg { return PrefsSavedMsg{Err: SavePrefs(path, p)} }
}
