package runs

import (
	"errors"
	"strings"
	"testing"

	"corral/config"
)

// --depends-on's dependencies are checked against the server's runs: a name is the
// newest run of it, an id (or its unique start) that run, by its id; one that names
// no run, a condition its run can never meet, the new run's own name, and a wait
// that closes a cycle through runs still waiting are refused, each saying why.
func TestResolveDeps(t *testing.T) {
	all := []Info{
		{ID: "r1aaaa", Name: "db", State: Running, Spec: Spec{Ready: &config.Probe{Kind: config.ProbeTCP, Target: "127.0.0.1:1"}}},
		{ID: "r2bbbb", Name: "migrate", State: Exited},
		{ID: "r3cccc", Name: "watch", State: Running, Spec: Spec{Restart: &RestartSpec{Policy: RestartAlways}}},
		// api waits for a run called web, which does not exist yet.
		{ID: "r4dddd", Name: "api", State: Starting, WaitingFor: []Dependency{{Name: "web", Condition: CondStarted}},
			Spec: Spec{DependsOn: []Dependency{{Name: "web", Condition: CondStarted}}}},
	}
	got, err := ResolveDeps(all, "new", []Dependency{{Name: "db", Condition: CondReady}, {Name: "r2b", Condition: CondSucceeded}})
	if err != nil || len(got) != 2 || got[0] != (Dependency{Name: "db", Condition: CondReady}) ||
		got[1] != (Dependency{Name: "r2bbbb", Condition: CondSucceeded}) {
		t.Fatalf("resolved %+v, %v", got, err)
	}
	for _, tt := range []struct {
		name string
		deps []Dependency
		want string
	}{
		{"new", []Dependency{{Name: "cache", Condition: CondStarted}}, "--depends-on cache: no run in the server has that name or id (the runs: api, db, migrate, watch); nothing was started"},
		{"new", []Dependency{{Name: "r", Condition: CondStarted}}, "the start of 4 runs' ids"},
		{"new", []Dependency{{Name: "migrate", Condition: CondReady}}, "--depends-on migrate=ready can never hold: run r2bbbb has no readiness probe"},
		{"new", []Dependency{{Name: "watch", Condition: CondSucceeded}}, "run r3cccc restarts always"},
		{"db", []Dependency{{Name: "db", Condition: CondStarted}}, "would wait for itself"},
		{"web", []Dependency{{Name: "api", Condition: CondStarted}}, "a cycle: web waits for api, which waits for web"},
		{"new", []Dependency{{Name: "db", Condition: CondStarted}, {Name: "r1a", Condition: CondStarted}}, ""}, // the same run by name and id: two waits that agree
	} {
		_, err := ResolveDeps(all, tt.name, tt.deps)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s %+v: %v", tt.name, tt.deps, err)
		case tt.want != "" && (err == nil || !errors.Is(err, ErrBadSpec) || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s %+v: %v, want %q", tt.name, tt.deps, err, tt.want)
		}
	}
}
