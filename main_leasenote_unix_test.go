//go:build unix

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit/eventually"
)

// corral doctor says that the server cannot renew its lease, and why, as corral ls
// says it of each run: its lease file cannot be replaced (a full disk, here a
// directory where its temp file goes), and doctor exits 1; once a renewal lands
// again doctor says nothing of it.
func TestDoctorLeaseNotRenewed(t *testing.T) {
	state := serverState(t)
	if r := serverCorral(t, state, "spawn", "--name", "held", "--", "sleep", "600"); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	doc := serverCorral(t, state, "doctor")
	m := regexp.MustCompile(`instance (\S+)`).FindStringSubmatch(doc.stdout)
	if m == nil {
		t.Fatalf("doctor names no server instance: %+v", doc)
	}
	if strings.Contains(doc.stdout, "not renewed") {
		t.Fatalf("doctor says a renewed lease was not: %+v", doc)
	}
	blocker := filepath.Join(state, "instances", m[1]+".lease.tmp")
	if err := os.Mkdir(blocker, 0o700); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(blocker)
	eventually.True(t, 30*time.Second, "doctor to say the lease was not renewed", func() bool {
		doc = serverCorral(t, state, "doctor")
		return doc.code == 1 && regexp.MustCompile(`(?m)^server lease:\s+lease not renewed \(.*file exists\)`).MatchString(doc.stdout)
	})
	t.Logf("doctor:\n%s", doc.stdout)
	os.Remove(blocker)
	eventually.True(t, 30*time.Second, "doctor to say nothing of the lease once renewed", func() bool {
		doc = serverCorral(t, state, "doctor")
		return !strings.Contains(doc.stdout, "not renewed")
	})
}
