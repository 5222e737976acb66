package runs

import (
	"encoding/hex"
	"strings"
	"time"
)

// The logs dir holds every run's transcripts and recording (<id>.log, <id>.log.1,
// <id>.stderr.log, <id>.cast). A run's record goes finished_ttl after it ended; its
// logs stay after it, for corral export, scroll back and a look at what happened, but
// not for ever: a day of agents and restarting services writes gigabytes. Files of a
// run no record names any more are removed once they have not been written for
// log_ttl (default two weeks; 0 keeps them). What a record names is never removed,
// however old, nor anything in the dir that is not a run's.

// sweepLogs removes the logs of runs that recs (every record of the state dir) and
// this supervisor's own runs no longer name, unwritten for LogTTL. It reports how
// many files went.
func (s *Supervisor) sweepLogs(recs []Record) int {
	if s.logs == nil || s.cfg.LogTTL <= 0 {
		return 0
	}
	names, err := s.logs.Names()
	if err != nil {
		return 0
	}
	named := make(map[string]bool, len(recs))
	for _, rec := range recs {
		named[rec.ID] = true
	}
	for _, i := range s.Snapshot() { // a run without a record (one of --local with none)
		named[i.ID] = true
	}
	cutoff := s.reg.now().Add(-s.cfg.LogTTL).UnixNano()
	n := 0
	for _, name := range names {
		id, _, ok := strings.Cut(name, ".")
		if !ok || !isRunID(id) || named[id] {
			continue
		}
		st, err := s.logs.Stamp(name)
		if err != nil || st.Mtime > cutoff {
			continue
		}
		if s.logs.Remove(name) == nil {
			n++
		}
	}
	if n > 0 {
		s.reg.emit("logs-swept", "files", n, "older_than", s.cfg.LogTTL)
	}
	return n
}

// isRunID reports whether id has the form newID gives: "r" and 12 hex digits.
func isRunID(id string) bool {
	if len(id) != 13 || id[0] != 'r' {
		return false
	}
	_, err := hex.DecodeString(id[1:])
	return err == nil
}

// logSweepEvery is how often a long-lived Corral (a server that runs for weeks)
// reconciles on its own, which sweeps the logs (and drops expired records).
const logSweepEvery = 24 * time.Hour
