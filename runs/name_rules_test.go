package runs

import (
	"errors"
	"strings"
	"testing"
)

// A given name that would read as a path, an option or another run's id is refused,
// the error naming the rule. Before: "..", "a/b", "-rf" and a prefix of a run's id
// were taken, and the last caught verbs meant for that run.
func TestRunNamesRefused(t *testing.T) {
	s := newSup(t)
	id := spawn(t, s, Spec{Shell: "sleep 30"})
	defer s.Cancel(id)
	for name, rule := range map[string]string{
		".":           "cannot be . or ..",
		"..":          "cannot be . or ..",
		"a/b":         "cannot contain /",
		"-rf":         "cannot start with -",
		"x\x1b[31my":  "control characters",
		id[:4]:        "start of run " + id,
		id:            "start of run " + id,
		"\x00":        "control characters",
		"ok/../../..": "cannot contain /",
	} {
		got, err := s.Spawn(Spec{Name: name, Shell: "true"})
		if !errors.Is(err, ErrBadSpec) || !strings.Contains(err.Error(), rule) {
			t.Errorf("name %q: run %q, error %v; want refused (%s)", name, got, err, rule)
		}
	}
	ok := spawn(t, s, Spec{Name: "web-1.2 (ok)", Shell: "true"})
	waitEnd(t, s, ok)
}
