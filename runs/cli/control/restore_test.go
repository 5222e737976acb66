package control

import (
	"testing"

	"corral/runs"
)

// Each restore line names the lost run and what became of it; a run that could not
// start says so (not "→ run", as if restored) and what to do.
func TestRestoredLine(t *testing.T) {
	for _, c := range []struct {
		r    runs.Restored
		want string
	}{
		{runs.Restored{From: "r1", Name: "api", ID: "r2", SessionID: "s", Dir: "/w"}, "r1 (api) → r2: resumes conversation s in /w"},
		{runs.Restored{From: "r1", Name: "api", ID: "r2", SessionID: "s", Error: "spawn r2: no such file"},
			"r1 (api): not started (run r2 ended at once): spawn r2: no such file; fix that and run corral restore r1 again"},
		{runs.Restored{From: "r1", Name: "api", Error: "bad spec"}, "r1 (api): not started: bad spec"},
		{runs.Restored{From: "r1", Name: "api", Skipped: "restored already, as run r2: a record is restored once"},
			"r1 (api): not restored: restored already, as run r2: a record is restored once"},
	} {
		if got := restoredLine(c.r, false); got != c.want {
			t.Errorf("%+v:\n got %s\nwant %s", c.r, got, c.want)
		}
	}
}
