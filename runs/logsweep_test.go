package runs

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A reconcile removes the logs of runs no record names any more once they have not
// been written for log_ttl; a run's logs that a record names stay however old, and so
// does anything in the dir that is not a run's, and a fresh file.
func TestLogSweep(t *testing.T) {
	for _, ttl := range []time.Duration{14 * 24 * time.Hour, 0} {
		dir := t.TempDir()
		d := testDefaults()
		d.LogTTL = ttl
		reg := openReg(t, dir)
		s := regSup(t, reg, WithDefaults(d), WithLogDir(filepath.Join(dir, "logs")))
		id := spawn(t, s, childSpec(false, "exit", "0"))
		info := waitEnd(t, s, id)
		logs := filepath.Join(dir, "logs")
		old := time.Now().Add(-20 * 24 * time.Hour)
		files := map[string]bool{ // name: swept when ttl > 0
			"r0123456789ab.log": true, "r0123456789ab.log.1": true, "r0123456789ab.cast": true,
			"r0123456789cd.log": false, // fresh
			"notes.txt":         false, "r.x": false,
			filepath.Base(info.Transcript): false, // its record names it
		}
		for name := range files {
			p := filepath.Join(logs, name)
			if _, err := os.Stat(p); err != nil {
				os.WriteFile(p, []byte("x"), 0o600)
			}
			if name != "r0123456789cd.log" {
				os.Chtimes(p, old, old)
			}
		}
		if _, err := s.Reconcile(t.Context()); err != nil {
			t.Fatal(err)
		}
		for name, swept := range files {
			_, err := os.Stat(filepath.Join(logs, name))
			if gone := os.IsNotExist(err); gone != (swept && ttl > 0) {
				t.Errorf("log_ttl %v: %s gone %v", ttl, name, gone)
			}
		}
	}
}
