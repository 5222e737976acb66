package agentstate

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// sessionFileLayouts are the session-file layouts Corral can learn an id from (a
// rule's files key).
var sessionFileLayouts = []string{"codex"}

// FileOwner is who holds a session file open: the CLI keeps its file open while its
// conversation goes on, so the process holding it names the run it is.
type FileOwner int

const (
	OwnerUnknown FileOwner = iota // no process is seen holding it (or it cannot be told)
	OwnerThisRun                  // a process of this run holds it
	OwnerOther                    // only processes of no run, or of another run, hold it
)

// FileID learns the run's conversation id from the agent's session files, for a CLI
// that takes no id at launch: a file begun since the run started (since), in the
// run's directory (dir), whose id no other run holds (taken). A file a process of the
// run holds open (owner) is the run's; one only others hold is never taken; of those
// nobody is seen holding, two are no answer (two runs of one directory started
// together): the id is never guessed from which file is newest. env is the run's
// environment (where the CLI keeps its files). It returns "" when no file proves to
// be the run's.
func (s *Session) FileID(env []string, dir string, since time.Time, taken func(id string) bool, owner func(path string) FileOwner) string {
	if s == nil || s.Files != "codex" {
		return ""
	}
	home := lookupEnv(env, "CODEX_HOME")
	if home == "" {
		h := lookupEnv(env, "HOME")
		if h == "" {
			return ""
		}
		home = filepath.Join(h, ".codex")
	}
	want := canonical(dir)
	found, ambiguous := "", false
	// Its files are under sessions/YYYY/MM/DD/ (local time): the days from the run's
	// start to now.
	seen := map[string]bool{}
	for day := since.Add(-24 * time.Hour); !day.After(time.Now().Add(24 * time.Hour)); day = day.Add(12 * time.Hour) {
		d := filepath.Join(home, "sessions", day.Format("2006"), day.Format("01"), day.Format("02"))
		if seen[d] {
			continue
		}
		seen[d] = true
		ents, err := os.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range ents {
			if !strings.HasPrefix(e.Name(), "rollout-") || !strings.HasSuffix(e.Name(), ".jsonl") {
				continue
			}
			if fi, err := e.Info(); err != nil || fi.ModTime().Before(since.Add(-time.Second)) {
				continue
			}
			path := filepath.Join(d, e.Name())
			id, cwd, at := codexMeta(path)
			if id == "" || !strings.Contains(e.Name(), id) || canonical(cwd) != want ||
				at.Before(since.Add(-time.Second)) || (s.ID != nil && !s.ID.MatchString(id)) || taken(id) {
				continue
			}
			switch owner(path) {
			case OwnerThisRun:
				return id
			case OwnerOther:
				continue
			}
			if found != "" && found != id {
				ambiguous = true // two conversations could be the run's: neither is taken
			}
			found = id
		}
	}
	if ambiguous {
		return ""
	}
	return found
}

// codexMeta reads a codex rollout's first line, its session_meta: the id, the
// directory and the time the conversation began.
func codexMeta(path string) (id, cwd string, at time.Time) {
	f, err := os.Open(path)
	if err != nil {
		return "", "", time.Time{}
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	if !sc.Scan() {
		return "", "", time.Time{}
	}
	var line struct {
		Type    string `json:"type"`
		Payload struct {
			ID        string    `json:"id"`
			Cwd       string    `json:"cwd"`
			Timestamp time.Time `json:"timestamp"`
		} `json:"payload"`
	}
	if json.Unmarshal(sc.Bytes(), &line) != nil || line.Type != "session_meta" {
		return "", "", time.Time{}
	}
	return line.Payload.ID, line.Payload.Cwd, line.Payload.Timestamp
}

func lookupEnv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

func canonical(dir string) string {
	if dir == "" {
		return ""
	}
	if p, err := filepath.EvalSymlinks(dir); err == nil {
		dir = p
	}
	return filepath.Clean(dir)
}
