package runs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"strings"
	"sync"
)

// eventLog appends structured events (slog JSON, one line each) to events.jsonl in the
// state dir. Several Corral processes append to the same file: O_APPEND and slog's one
// Write per record keep lines whole. A nil *eventLog drops everything.
//
// The file is bounded: once it holds eventLogCap bytes it becomes events.jsonl.1 (the
// one before that goes) and a new one is begun, so a server that runs for weeks with
// busy runs keeps two files' worth of history, not every output heartbeat since it
// was installed. Whichever process sees the file full first moves it, under a lock
// file, and only if the name is still the file it writes to; the others see the name
// is another file now and open that.
type eventLog struct {
	root *stateDir
	mu   sync.Mutex // f, and a write against a rotation
	f    *os.File
	log  *slog.Logger
}

// eventLogCap is the size events.jsonl grows to before it is rotated; a variable:
// tests rotate a small one.
var eventLogCap int64 = 32 << 20

// openEventLog opens events.jsonl in the state dir root for appending.
func openEventLog(root *stateDir, instance string) (*eventLog, error) {
	f, err := openEventFile(root)
	if err != nil {
		return nil, err
	}
	e := &eventLog{root: root, f: f}
	h := slog.NewJSONHandler(eventWriter{e}, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: millisAttr})
	e.log = slog.New(h).With("instance_id", instance)
	return e, nil
}

func openEventFile(root *stateDir) (*os.File, error) {
	f, err := root.open(EventLogName, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("events: %w", err)
	}
	return f, nil
}

// eventWriter is what slog writes each line to: the log's file of the moment.
type eventWriter struct{ e *eventLog }

func (w eventWriter) Write(p []byte) (int, error) {
	e := w.e
	e.mu.Lock()
	defer e.mu.Unlock()
	if st, err := stampOf(e.f); err == nil && st.size >= eventLogCap {
		e.rotateLocked(st)
	}
	return e.f.Write(p)
}

// rotateLocked moves the full file (mine, its stamp) aside as events.jsonl.1 unless
// another process did already, and opens events.jsonl afresh. Where there is no lock
// (Windows), nothing is moved: an open file cannot be renamed there anyway.
func (e *eventLog) rotateLocked(mine fileStamp) {
	l, err := lockFile(e.root, EventLogName+".lock", true)
	if err != nil {
		return
	}
	defer l.release()
	if named, err := e.root.stamp(EventLogName); err == nil && named.ino == mine.ino {
		if err := e.root.rename(EventLogName, e.root, EventLogName+".1"); err != nil {
			return
		}
	}
	f, err := openEventFile(e.root)
	if err != nil {
		return // the full file is written to on: nothing is lost
	}
	e.f.Close()
	e.f = f
}

// millisAttr writes a duration the way every JSON of Corral's does (spec_json.go):
// integer milliseconds under a key ending in _ms, not slog's nanoseconds.
func millisAttr(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		return slog.Int64(a.Key+"_ms", Millis(a.Value.Duration()))
	}
	return a
}

// emit writes one event: msg is the event type, attrs alternate key and value.
func (e *eventLog) emit(msg string, attrs ...any) {
	if e == nil {
		return
	}
	e.log.Info(msg, attrs...)
}

func (e *eventLog) close() {
	if e != nil {
		e.mu.Lock()
		e.f.Close()
		e.mu.Unlock()
	}
}

// Metrics are the counters of DESIGN §11.
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
	if err := r.metrics.replace(name, name+".tmp", b, false); err != nil {
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
	names, _ := r.metrics.names()
	for _, name := range names {
		if !strings.HasSuffix(name, ".json") || own != nil && name == r.instance+".json" {
			continue
		}
		b, err := r.metrics.read(name, recordCap)
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
