package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/config"
	"corral/demo/testkit/eventually"
	"corral/runs"
	"corral/runs/cli/listing"
)

// corral ls is the same whoever answers it: with a server, from what it holds (no
// record is read), the runs as corral ls printed them from the registry's files, byte
// for byte; once the server is gone, from the files. poll and info answer from the server while one
// runs, and say there is none after.
func TestLsHeldEqualsFiles(t *testing.T) {
	state := serverState(t)
	id := func(r result) string {
		t.Helper()
		if r.code != 0 {
			t.Fatalf("corral spawn: exit %d: %s", r.code, r.stderr)
		}
		return strings.TrimSpace(r.stdout)
	}
	said := id(serverCorral(t, state, "spawn", "--name", "said", "--", "sh", "-c", "echo hello-ls; exit 3"))
	id(serverCorral(t, state, "spawn", "--name", "pipe", "--", "sleep", "600"))
	id(serverCorral(t, state, "spawn", "--pty", "--name", "pty", "--", "sh", "-c", "sleep 600"))
	eventually.True(t, 20*time.Second, "the short run ended", func() bool {
		r := serverCorral(t, state, "info", "--json", said)
		return r.code == 0 && strings.Contains(r.stdout, `"exited"`)
	})
	files := func(all bool) string {
		t.Helper()
		reg, err := runs.OpenRegistry(state, config.Default())
		if err != nil {
			t.Fatal(err)
		}
		defer reg.Close()
		rs, err := listing.List(reg, all, config.Default().FinishedTTL)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		listing.WriteJSON(&b, rs, reg.Totals())
		return b.String()
	}
	equal := func(when string) {
		t.Helper()
		for _, all := range []bool{false, true} {
			heldEqualsFiles(t, state, when, all, files)
		}
	}
	equal("first")
	// Once the runs directory has not changed for longer than a listing trusts its
	// stamp (two seconds), the server lists its own records from memory (no stat):
	// still the files' runs.
	eventually.True(t, 30*time.Second, "the runs directory settled", func() bool {
		fi, err := os.Stat(filepath.Join(state, "runs"))
		return err == nil && time.Since(fi.ModTime()) > 3*time.Second
	})
	equal("settled")
	table := serverCorral(t, state, "ls")
	if table.code != 0 || !strings.HasPrefix(table.stdout, "ID ") || strings.Count(table.stdout, "\n") != 4 {
		t.Fatalf("corral ls: exit %d:\n%s%s", table.code, table.stdout, table.stderr)
	}
	if r := serverCorral(t, state, "poll", said); r.code != 0 || !strings.Contains(r.stdout, "hello-ls") {
		t.Errorf("corral poll with a server: exit %d: %q %s", r.code, r.stdout, r.stderr)
	}
	if r := serverCorral(t, state, "info", "--json", "pty"); r.code != 0 || !strings.Contains(r.stdout, `"running"`) {
		t.Errorf("corral info with a server: exit %d: %q %s", r.code, r.stdout, r.stderr)
	}

	if r := serverCorral(t, state, "shutdown"); r.code != 0 {
		t.Fatalf("corral shutdown: exit %d: %s", r.code, r.stderr)
	}
	var last result
	eventually.True(t, 20*time.Second, "no server", func() bool {
		last = serverCorral(t, state, "info", said)
		return last.code == 1 && strings.Contains(last.stderr, "no corral server")
	})
	if t.Failed() {
		t.Logf("corral info without a server: %+v", last)
	}
	if r := serverCorral(t, state, "poll", said); r.code != 1 || !strings.Contains(r.stderr, "no corral server") {
		t.Errorf("corral poll without a server: exit %d: %s", r.code, r.stderr)
	}
	gone := serverCorral(t, state, "ls", "--json")
	if want := files(false); gone.code != 0 || runsOf(t, gone.stdout) != runsOf(t, want) {
		t.Fatalf("corral ls --json without a server: exit %d:\n%s\nthe files:\n%s", gone.code, gone.stdout, want)
	}
	var doc listing.Doc
	if err := json.Unmarshal([]byte(gone.stdout), &doc); err != nil || len(doc.Runs) != 3 {
		t.Fatalf("corral ls --json without a server: %d runs (%v)", len(doc.Runs), err)
	}
	for _, r := range doc.Runs {
		if r.State != runs.Exited || r.OwnerAlive {
			t.Errorf("run %s after shutdown: %s, owner alive %v", r.Name, r.State, r.OwnerAlive)
		}
	}
}

// heldEqualsFiles checks that corral ls --json (--all with all) from the server
// lists the runs as files, the files' listing read after it, does.
func heldEqualsFiles(t *testing.T, state, when string, all bool, files func(all bool) string) {
	t.Helper()
	args := []string{"ls", "--json"}
	if all {
		args = append(args, "--all")
	}
	held := serverCorral(t, state, args...)
	if held.code != 0 {
		t.Fatalf("corral ls --json: exit %d: %s", held.code, held.stderr)
	}
	if want := files(all); runsOf(t, held.stdout) != runsOf(t, want) {
		t.Fatalf("corral ls --json (all %v, %s) from the server:\n%s\nfrom the files:\n%s", all, when, held.stdout, want)
	}
	var doc listing.Doc
	if err := json.Unmarshal([]byte(held.stdout), &doc); err != nil || len(doc.Runs) != 3 {
		t.Fatalf("corral ls --json: %d runs (%v):\n%s", len(doc.Runs), err, held.stdout)
	}
}

// runsOf is the runs of corral ls --json's document, as printed. Its counters are
// left out: the server's are its live ones, the files' those it last saved.
func runsOf(t *testing.T, doc string) string {
	t.Helper()
	var d struct {
		Runs json.RawMessage `json:"runs"`
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatalf("%v:\n%s", err, doc)
	}
	return string(d.Runs)
}
