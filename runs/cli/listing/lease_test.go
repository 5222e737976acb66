//go:build !windows

package listing

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"corral/config"
	"corral/demo/testkit/eventually"
	"corral/runs"
)

// A lease that cannot be renewed (its temp file cannot be made: a full disk, here a
// directory in its place) is logged once however many heartbeats retry it, and corral
// ls says "lease not renewed (why)" where it showed a negative time; once a renewal
// succeeds again, ls shows the time left and the log says so. The run's Info says
// it as long (Info.LeaseNotRenewed, the details pane's).
func TestLeaseNotRenewedShown(t *testing.T) {
	d := config.Default()
	d.LeaseHeartbeat, d.LeaseExpiry = 50*time.Millisecond, 400*time.Millisecond
	dir := t.TempDir()
	reg, err := runs.OpenRegistry(dir, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	s, err := runs.New(runs.WithRegistry(reg), runs.WithDefaults(d), runs.WithLogDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		s.Shutdown(ctx)
	})
	id, err := s.Spawn(runs.Spec{Name: "held", Argv: []string{"sleep", "1000"}})
	if err != nil {
		t.Fatal(err)
	}
	blocker := filepath.Join(dir, "instances", reg.Instance()+".lease.tmp")
	if err := os.Mkdir(blocker, 0o700); err != nil {
		t.Fatal(err)
	}
	events := func() string { b, _ := os.ReadFile(filepath.Join(dir, "events.jsonl")); return string(b) }
	var table string
	var expired time.Time
	eventually.True(t, 10*time.Second, "ls to say the lease was not renewed", func() bool {
		rs, err := List(reg, false, time.Hour)
		if err != nil || len(rs) != 1 {
			return false
		}
		var b bytes.Buffer
		WriteTable(&b, rs)
		table, expired = b.String(), rs[0].LeaseExpiresAt
		return strings.Contains(table, "lease not renewed (") && strings.Contains(table, "file exists")
	})
	// The run's Info says it too, for the details pane: why, from the failed renewal.
	if info, _ := s.Info(id); !strings.Contains(info.LeaseNotRenewed, "file exists") {
		t.Errorf("the run's info says nothing of the lease not renewed: %q", info.LeaseNotRenewed)
	}
	if regexp.MustCompile(`\s-\d`).MatchString(table) {
		t.Errorf("a negative lease in ls:\n%s", table)
	}
	// Every heartbeat retries a lease that has less than half left, so one expired
	// for eight of them was retried eight times: the log has it once.
	eventually.True(t, 10*time.Second, "the lease expired eight heartbeats ago", func() bool {
		return time.Since(expired) > 8*d.LeaseHeartbeat
	})
	if n := strings.Count(events(), `"msg":"lease-not-renewed"`); n != 1 {
		t.Errorf("%d lease-not-renewed events, want 1:\n%s", n, events())
	}
	os.Remove(blocker)
	eventually.True(t, 10*time.Second, "the lease renewed and shown again", func() bool {
		rs, err := List(reg, false, time.Hour)
		return err == nil && len(rs) == 1 && rs[0].LeaseNote == "" && strings.Contains(events(), `"msg":"lease-renewed"`)
	})
	if info, _ := s.Info(id); info.LeaseNotRenewed != "" {
		t.Errorf("renewed, the run's info still says %q", info.LeaseNotRenewed)
	}
}
