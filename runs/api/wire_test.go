package api

import (
	"encoding/json"
	"strings"
	"testing"

	"corral/runs"
)

// corral info and the protocol write no -1 for what is not known: a cgroup without
// the memory controller has no memory_bytes, a run whose cgroup was not read (or
// that has none) neither key; a known 0 is written, and all of it reads back.
func TestWireInfoOmitsUnknownUsage(t *testing.T) {
	for _, c := range []struct {
		name             string
		usage            runs.Usage
		cpu, mem         bool
		wantCPU, wantMem string
	}{
		{"no memory controller", runs.Usage{Memory: -1, Known: true}, true, false, `"cpu_ms":0`, ""},
		{"not read", runs.Usage{}, false, false, "", ""},
		{"known", runs.Usage{CPU: 7_000_000, Memory: 0, Known: true}, true, true, `"cpu_ms":7`, `"memory_bytes":0`},
	} {
		b, err := json.Marshal(RunInfo{runs.Info{ID: "r1", State: runs.Running, Usage: c.usage}})
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if strings.Contains(s, ":-1") || strings.Contains(s, `"cpu_ms"`) != c.cpu ||
			strings.Contains(s, `"memory_bytes"`) != c.mem || !strings.Contains(s, c.wantCPU) || !strings.Contains(s, c.wantMem) {
			t.Errorf("%s: %s", c.name, s)
		}
		var back RunInfo
		if err := json.Unmarshal(b, &back); err != nil || back.Usage != c.usage {
			t.Errorf("%s: read back %+v, want %+v (%v)", c.name, back.Usage, c.usage, err)
		}
	}
	var old RunInfo // an older server wrote -1 for memory it did not know
	if err := json.Unmarshal([]byte(`{"id":"r1","cpu_ms":3,"memory_bytes":-1}`), &old); err != nil ||
		old.Usage != (runs.Usage{CPU: 3_000_000, Memory: -1, Known: true}) {
		t.Errorf("an older server's -1 read as %+v (%v)", old.Usage, err)
	}
}
