package runs

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/reaper"
)

// BenchmarkHeartbeat measures what a lease renewal writes: the instance's lease file
// (every run's lease at once), and with 10 live runs that printed since, the registry
// lock, read and rewrite of each of their records (no fsync: a renewal's).
func BenchmarkHeartbeat(b *testing.B) {
	reg, err := OpenRegistry(b.TempDir(), shortLeases())
	if err != nil {
		b.Fatal(err)
	}
	defer reg.Close()
	live := map[string]heartbeatRun{}
	for i := 0; i < 10; i++ {
		rec := Record{ID: fmt.Sprintf("r%d", i), State: Running}
		if err := reg.create(rec); err != nil {
			b.Fatal(err)
		}
		live[rec.ID] = heartbeatRun{epoch: 1}
	}
	b.Run("idle", func(b *testing.B) {
		for b.Loop() {
			if _, err := reg.renewInstance(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("10-printed", func(b *testing.B) {
		for b.Loop() {
			until, err := reg.renewInstance()
			if err != nil {
				b.Fatal(err)
			}
			if _, lost, err := reg.heartbeat(live, until); err != nil || len(lost) > 0 {
				b.Fatal(lost, err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/10, "µs/run")
	})
}

// BenchmarkReconcile1000 measures one reconciliation of 1,000 records with mixed
// decisions: 400 whose process is gone (lost), 200 from another boot (lost), 200 held
// by a live instance (left alone), 200 already exited (skipped). Closing a record is a
// durable write, so the lost ones dominate.
func BenchmarkReconcile1000(b *testing.B) {
	dir := b.TempDir()
	reg, err := OpenRegistry(dir, shortLeases())
	if err != nil {
		b.Fatal(err)
	}
	defer reg.Close()
	owner, err := OpenRegistry(dir, shortLeases()) // a live instance
	if err != nil {
		b.Fatal(err)
	}
	defer owner.Close()
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	self := testkit.Pin(b, os.Getpid())
	for b.Loop() {
		b.StopTimer()
		seedRecords(b, reg, owner.Instance(), self)
		b.StartTimer()
		ds, err := s.Reconcile(context.Background())
		if err != nil || len(ds) != 800 {
			b.Fatalf("%d decisions, %v", len(ds), err)
		}
	}
}

func seedRecords(b *testing.B, reg *Registry, liveOwner string, self reaper.Fingerprint) {
	now := time.Now()
	for i := 0; i < 1000; i++ {
		rec := Record{ID: fmt.Sprintf("r%04d", i), Backend: "pipe", State: Running, CreatedAt: now,
			OwnerInstanceID: "idead", LeaseEpoch: 1, LeaseExpiresAt: now.Add(-time.Minute), UpdatedAt: now}
		fp := self
		switch {
		case i < 400: // gone: a pid that cannot exist
			fp.PID, fp.StartTime = 1<<22+i, 1
		case i < 600:
			fp.BootID = "other-boot"
		case i < 800:
			rec.OwnerInstanceID, rec.LeaseExpiresAt = liveOwner, now.Add(time.Hour)
		default:
			rec.State = Exited
		}
		rec.PID, rec.SID, rec.Fingerprint = fp.PID, fp.PID, fp
		if err := reg.write(rec); err != nil {
			b.Fatal(err)
		}
	}
}
