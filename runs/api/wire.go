package api

import (
	"time"

	"corral/reaper"
	"corral/runs"
	"corral/watchdog"
)

// The protocol follows the rule of every JSON Corral writes (README, "JSON"):
// snake_case keys, durations as integer milliseconds under *_ms, times RFC 3339. The
// watchdog's state and the process trees are Go structs without JSON names and with
// time.Duration fields, so they cross the socket as the types below.

// WireInfo is a run's Info as it crosses the socket: Info leaves its live watchdog
// state out of JSON (records do not keep it), a UI shows it.
type WireInfo struct {
	runs.Info
	Watchdog WireWatchdog `json:"watchdog"`
	// Its cgroup's CPU time and memory while it lives; absent when not known (a run on
	// its session, ended, or a cgroup without the memory controller), never -1.
	CPUMS  *int64 `json:"cpu_ms,omitempty"`
	Memory *int64 `json:"memory_bytes,omitempty"`
}

func wireInfo(i runs.Info) WireInfo {
	w := WireInfo{Info: i, Watchdog: wireWatchdog(i.Watchdog)}
	if i.Usage.Known {
		w.CPUMS = new(runs.Millis(i.Usage.CPU))
		if i.Usage.Memory >= 0 {
			w.Memory = new(i.Usage.Memory)
		}
	}
	return w
}

func (w WireInfo) info() runs.Info {
	i := w.Info
	i.Watchdog = w.Watchdog.state()
	if w.CPUMS != nil {
		i.Usage.CPU, i.Usage.Known = runs.FromMillis(*w.CPUMS), true
	}
	switch {
	case w.Memory != nil && *w.Memory >= 0: // an older server wrote -1 for unknown
		i.Usage.Memory = *w.Memory
	case w.CPUMS != nil: // a cgroup that does not count memory
		i.Usage.Memory = -1
	}
	return i
}

// WireWatchdog is watchdog.State on the wire.
type WireWatchdog struct {
	Overall         WireDeadline `json:"overall"`
	NoOutput        WireDeadline `json:"no_output"`
	LastOutput      time.Time    `json:"last_output_at"`
	LastOutputAgeMS int64        `json:"last_output_age_ms"`
	Frozen          bool         `json:"frozen"`
	Awaiting        bool         `json:"awaiting"`
	Fired           int          `json:"fired"` // watchdog.Cause: 0 none, 1 overall, 2 no-output
	Stopped         bool         `json:"stopped"`
}

// WireDeadline is watchdog.Deadline on the wire.
type WireDeadline struct {
	Armed   bool      `json:"armed"`
	At      time.Time `json:"at"`
	SpanMS  int64     `json:"span_ms"`
	LeftMS  int64     `json:"left_ms"`
	Warning bool      `json:"warning"`
}

func wireWatchdog(s watchdog.State) WireWatchdog {
	return WireWatchdog{Overall: wireDeadline(s.Overall), NoOutput: wireDeadline(s.NoOutput),
		LastOutput: s.LastOutput, LastOutputAgeMS: runs.Millis(s.LastOutputAge), Frozen: s.Frozen,
		Awaiting: s.Awaiting, Fired: int(s.Fired), Stopped: s.Stopped}
}

func (w WireWatchdog) state() watchdog.State {
	return watchdog.State{Overall: w.Overall.deadline(), NoOutput: w.NoOutput.deadline(),
		LastOutput: w.LastOutput, LastOutputAge: runs.FromMillis(w.LastOutputAgeMS), Frozen: w.Frozen,
		Awaiting: w.Awaiting, Fired: watchdog.Cause(w.Fired), Stopped: w.Stopped}
}

func wireDeadline(d watchdog.Deadline) WireDeadline {
	return WireDeadline{Armed: d.Armed, At: d.At, SpanMS: runs.Millis(d.Span), LeftMS: runs.Millis(d.Left),
		Warning: d.Warning}
}

func (d WireDeadline) deadline() watchdog.Deadline {
	return watchdog.Deadline{Armed: d.Armed, At: d.At, Span: runs.FromMillis(d.SpanMS),
		Left: runs.FromMillis(d.LeftMS), Warning: d.Warning}
}

// WireProc is reaper.TreeProc on the wire.
type WireProc struct {
	PID       int         `json:"pid"`
	PPID      int         `json:"ppid"`
	PGID      int         `json:"pgid"`
	SID       int         `json:"sid"`
	State     string      `json:"state"` // one letter, as in /proc: R S D Z T …
	Comm      string      `json:"comm"`
	StartTime uint64      `json:"start_time"` // clock ticks since boot
	RSS       int64       `json:"rss"`        // bytes
	Threads   int         `json:"threads"`
	Mark      reaper.Mark `json:"mark"`
	Depth     int         `json:"depth"`
	CPUMS     int64       `json:"cpu_ms"` // user + system time
	Argv      []string    `json:"argv,omitempty"`
}

func wireTrees(in map[string][]reaper.TreeProc) map[string][]WireProc {
	out := make(map[string][]WireProc, len(in))
	for id, ps := range in {
		w := make([]WireProc, len(ps))
		for i, p := range ps {
			w[i] = WireProc{PID: p.PID, PPID: p.PPID, PGID: p.PGID, SID: p.SID, State: string(rune(p.State)),
				Comm: p.Comm, StartTime: p.StartTime, RSS: p.RSS,
				Threads: p.Threads, Mark: p.Mark, Depth: p.Depth, CPUMS: runs.Millis(p.CPU), Argv: p.Argv}
		}
		out[id] = w
	}
	return out
}

func treesOf(in map[string][]WireProc) map[string][]reaper.TreeProc {
	out := make(map[string][]reaper.TreeProc, len(in))
	for id, ws := range in {
		ps := make([]reaper.TreeProc, len(ws))
		for i, w := range ws {
			var st byte
			if w.State != "" {
				st = w.State[0]
			}
			ps[i] = reaper.TreeProc{Proc: reaper.Proc{PID: w.PID, PPID: w.PPID, PGID: w.PGID, SID: w.SID,
				State: st, Comm: w.Comm, StartTime: w.StartTime, RSS: w.RSS,
				Threads: w.Threads}, Mark: w.Mark, Depth: w.Depth, CPU: runs.FromMillis(w.CPUMS), Argv: w.Argv}
		}
		out[id] = ps
	}
	return out
}
