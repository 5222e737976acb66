package runs

import (
	"testing"
	"time"
)

// An idle server's heartbeat sleeps until its lease is due for renewal (half of it
// left), not a fixed LeaseHeartbeat: it wakes twice a lease, not five times, and the
// beat at that wake renews it with half a lease still left. A failed renewal, or none
// yet, is tried again after LeaseHeartbeat; a lease far ahead of the clock sleeps at
// most half a lease.
func TestHeartbeatSleepsUntilRenewalDue(t *testing.T) {
	d := testDefaults()
	d.LeaseHeartbeat, d.LeaseExpiry = 2*time.Second, 10*time.Second
	reg, err := OpenRegistry(t.TempDir(), d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	now := time.Now()
	reg.clock = func() time.Time { return now }
	s := &Supervisor{cfg: d, reg: reg}
	if got := s.nextBeat(); got != d.LeaseHeartbeat {
		t.Errorf("before any renewal: sleeps %v, want %v", got, d.LeaseHeartbeat)
	}
	s.heartbeat() // takes the lease
	if !s.leased.After(now) {
		t.Fatalf("the first beat did not take the lease (leased %v)", s.leased)
	}
	first := s.leased
	sleep := s.nextBeat()
	if want := d.LeaseExpiry/2 + time.Millisecond; sleep != want {
		t.Errorf("after a renewal: sleeps %v, want %v (until half the lease is left)", sleep, want)
	}
	now = now.Add(sleep)
	s.heartbeat()
	if !s.leased.After(first) {
		t.Errorf("the beat after that sleep did not renew: leased %v, was %v", s.leased, first)
	}
	if left := first.Sub(now); left < d.LeaseExpiry/2-time.Millisecond {
		t.Errorf("renewed with %v left, want about half the lease", left)
	}
	s.leaseErr = true
	if got := s.nextBeat(); got != d.LeaseHeartbeat {
		t.Errorf("after a failed renewal: sleeps %v, want %v", got, d.LeaseHeartbeat)
	}
	s.leaseErr = false
	s.leased = now.Add(time.Hour)
	if got := s.nextBeat(); got != d.LeaseExpiry/2+time.Millisecond {
		t.Errorf("a lease an hour ahead: sleeps %v, want at most half a lease", got)
	}
}
