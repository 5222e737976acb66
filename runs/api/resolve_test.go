package api

import (
	"errors"
	"strings"
	"testing"

	"corral/runs"
)

// runsCore is a Core that knows only its runs (what Resolve asks).
type runsCore struct {
	Core
	runs []runs.Info
}

func (c runsCore) Snapshot() []runs.Info { return c.runs }

func (c runsCore) Info(id string) (runs.Info, error) {
	for _, i := range c.runs {
		if i.ID == id {
			return i, nil
		}
	}
	return runs.Info{}, errors.New("no run")
}

// A reference that is one run's name and the start of another's id is refused as
// ambiguous, naming both; an exact id always wins. Before: the name won, and a run
// named like another's id prefix caught `corral kill <prefix>`.
func TestResolveNameAndIDPrefix(t *testing.T) {
	c := runsCore{runs: []runs.Info{
		{ID: "r1a2b3c4d5e6f", Name: "r1a2b"}, // named like another's id prefix
		{ID: "r1a2b9999999a", Name: "victim"},
		{ID: "rffffffffffff", Name: "r1a2b9999999a"},
	}}
	_, err := Resolve(c, "r1a2b")
	if err == nil || !isCode(err, CodeAmbiguous) || !strings.Contains(err.Error(), "r1a2b3c4d5e6f") ||
		!strings.Contains(err.Error(), "r1a2b9999999a") {
		t.Errorf("name and id prefix: %v, want ambiguous naming both runs", err)
	}
	if id, err := Resolve(c, "r1a2b9999999a"); err != nil || id != "r1a2b9999999a" {
		t.Errorf("an exact id that is another run's name: %q %v, want the id's run", id, err)
	}
	if id, err := Resolve(c, "victim"); err != nil || id != "r1a2b9999999a" {
		t.Errorf("a name alone: %q %v", id, err)
	}
	if id, err := Resolve(c, "rfff"); err != nil || id != "rffffffffffff" {
		t.Errorf("an id prefix alone: %q %v", id, err)
	}
}
