package runs

import (
	"fmt"
	"strings"
)

// FindRecording is the recording of the registry's run named by arg: its id, a
// unique prefix of it or its name (the newest run of that name). Every PTY run
// writes <state dir>/logs/<id>.cast; a pipe run has none.
func FindRecording(reg *Registry, arg string) (string, error) {
	recs, err := reg.List()
	if err != nil {
		return "", err
	}
	var found *Record
	for i, r := range recs {
		match := r.ID == arg || r.Name == arg || strings.HasPrefix(r.ID, arg)
		if match && (found == nil || r.CreatedAt.After(found.CreatedAt)) {
			found = &recs[i]
		}
	}
	if found == nil {
		return "", fmt.Errorf("%s is neither a file nor a run in %s", arg, reg.Dir())
	}
	for _, l := range found.Logs {
		if strings.HasSuffix(l, ".cast") {
			return l, nil
		}
	}
	return "", fmt.Errorf("run %s (%s) has no recording: only PTY runs are recorded", found.ID, Printable(found.Name))
}
