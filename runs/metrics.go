package runs

import (
	"bytes"
	"encoding/json"
	"maps"
	"strings"
	"sync"

	"corral/reaper"
)

// Metrics are the supervisor's counters, persisted per instance to
// metrics/<instance>.json and summed over instances by corral ls.
type Metrics struct {
	SpawnTotal            int64            `json:"run_spawn_total"`
	ExitTotal             map[string]int64 `json:"run_exit_total"`         // by reason
	TimeoutTotal          map[string]int64 `json:"run_timeout_total"`      // by type: overall, no-output
	CleanupKillTotal      map[string]int64 `json:"run_cleanup_kill_total"` // by mode: term, kill
	ReconcileOrphansTotal int64            `json:"run_reconcile_orphans_total"`
	LeaseStealTotal       int64            `json:"run_lease_steal_total"`
	OwnershipEscapeTotal  int64            `json:"run_ownership_escape_total"` // escape events: a run's processes seen leaving its session
}

func newMetrics() Metrics {
	return Metrics{ExitTotal: map[string]int64{}, TimeoutTotal: map[string]int64{},
		CleanupKillTotal: map[string]int64{}}
}

// Add sums o into m.
func (m *Metrics) Add(o Metrics) {
	m.SpawnTotal += o.SpawnTotal
	m.ReconcileOrphansTotal += o.ReconcileOrphansTotal
	m.LeaseStealTotal += o.LeaseStealTotal
	m.OwnershipEscapeTotal += o.OwnershipEscapeTotal
	for _, p := range []struct{ dst, src map[string]int64 }{
		{m.ExitTotal, o.ExitTotal}, {m.TimeoutTotal, o.TimeoutTotal}, {m.CleanupKillTotal, o.CleanupKillTotal},
	} {
		for k, v := range p.src {
			p.dst[k] += v
		}
	}
}

func (m Metrics) clone() Metrics {
	c := m
	c.ExitTotal, c.TimeoutTotal = maps.Clone(m.ExitTotal), maps.Clone(m.TimeoutTotal)
	c.CleanupKillTotal = maps.Clone(m.CleanupKillTotal)
	return c
}

// counters is the supervisor's live Metrics.
type counters struct {
	mu sync.Mutex
	m  Metrics
}

func (c *counters) do(f func(*Metrics)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(&c.m)
}

func (c *counters) snapshot() Metrics {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m.clone()
}

// saveMetrics persists this instance's counters to metrics/<instance>.json.
func (r *Registry) saveMetrics(m Metrics) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	r.metricsMu.Lock() // one writer of the temp file at a time
	defer r.metricsMu.Unlock()
	if bytes.Equal(b, r.savedMetrics) {
		return nil // unchanged since the last save: an idle Corral writes nothing
	}
	name := r.instance + ".json"
	if err := r.metrics.Replace(name, name+".tmp", b, false); err != nil {
		return err
	}
	r.savedMetrics = b
	return nil
}

// Totals sums the counters every instance has persisted.
func (r *Registry) Totals() Metrics { return r.totals(nil) }

// TotalsWith is Totals with this instance's counters as they are now (own), not as
// last saved: what its server answers corral ls with.
func (r *Registry) TotalsWith(own Metrics) Metrics { return r.totals(&own) }

func (r *Registry) totals(own *Metrics) Metrics {
	total := newMetrics()
	if own != nil {
		total.Add(*own)
	}
	names, _ := r.metrics.Names()
	for _, name := range names {
		if !strings.HasSuffix(name, ".json") || own != nil && name == r.instance+".json" {
			continue
		}
		b, err := r.metrics.Read(name, recordCap)
		if err != nil {
			continue
		}
		m := newMetrics()
		if json.Unmarshal(b, &m) == nil {
			total.Add(m)
		}
	}
	return total
}

func (s *Supervisor) countCleanup(rep reaper.Report) {
	s.counters.do(func(m *Metrics) {
		m.CleanupKillTotal["term"] += int64(rep.Killed - rep.Hard)
		m.CleanupKillTotal["kill"] += int64(rep.Hard)
	})
}

func (s *Supervisor) countExit(reason Reason) {
	s.counters.do(func(m *Metrics) {
		m.ExitTotal[reason.String()]++
		switch reason {
		case OverallTimeout:
			m.TimeoutTotal["overall"]++
		case NoOutputTimeout:
			m.TimeoutTotal["no-output"]++
		}
	})
}

// Metrics returns this supervisor's counters.
func (s *Supervisor) Metrics() Metrics { return s.counters.snapshot() }
