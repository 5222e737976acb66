package launch

import (
	"fmt"
	"os"
	"path/filepath"

	"corral/config"
	"corral/demo"
	"corral/runs"
)

// Replay plays the recording at path (cols × rows, from its header) in a Corral pane,
// over a supervisor in the state dir dir: a PTY run of the built-in player (demo's
// cast-play), so it is a run like any other; its keys (pause, seek, speed) work
// outside focus too (ui/replay.go), with the [keys] and [ui] of the config corral
// would open.
func Replay(dir, path string, cols, rows int, speed float64, warn func(string)) error {
	argv, env := demo.Child("cast-play", path, fmt.Sprint(speed))
	// At the recording's size, whatever the pane's: the player follows its resizes.
	spec := runs.Spec{Name: "replay " + filepath.Base(path), Argv: argv, Env: env, PTY: true,
		Cols: uint16(min(cols, 1000)), Rows: uint16(min(rows, 1000)), FixedSize: true}
	_, _, rs, err := Load("", "")
	if err != nil {
		fmt.Fprintf(os.Stderr, "corral replay: %v; the default keys apply\n", err)
	}
	rs.Start, rs.Pending, rs.Replay = []runs.Spec{spec}, nil, true
	return Local(config.Default(), dir, rs, nil, warn)
}

// Recording is the recording corral replay plays: a file, or the recording of a run
// of the state dir's registry named by its id, a unique prefix of it or its name (the
// newest run of that name): every PTY run writes <state dir>/logs/<id>.cast.
func Recording(arg, stateDir string) (string, error) {
	if st, err := os.Stat(arg); err == nil && !st.IsDir() {
		return filepath.Abs(arg)
	}
	dir, err := config.ResolveStateDir(stateDir, config.Default().StateDir)
	if err != nil {
		return "", err
	}
	reg, err := runs.OpenRegistry(dir, config.Default())
	if err != nil {
		return "", err
	}
	defer reg.Close()
	return runs.FindRecording(reg, arg)
}
