package runs

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"corral/reaper"
	"corral/runs/internal/statefile"
	"corral/runs/workspace"
)

// Record is one run as stored durably in <state>/runs/<runId>.json. It is
// what lets a later Corral explain, reap or adopt a run whose owner died. Its Secret
// is the one field nothing prints: Public is the record as shown (corral ls).
type Record struct {
	ID              string             `json:"run_id"`
	StateDir        string             `json:"state_dir_id,omitempty"` // the identity of the state dir that wrote it; "" before they had one
	Secret          string             `json:"secret,omitempty"`       // RunSecretEnv's value; "" in records written before runs carried a secret
	Name            string             `json:"name"`
	Backend         Kind               `json:"backend"`
	Spec            Spec               `json:"spec"`
	PID             int                `json:"pid"`
	PGID            int                `json:"pgid"`
	SID             int                `json:"sid"`
	Fingerprint     reaper.Fingerprint `json:"fingerprint"`
	State           State              `json:"state"`
	Reason          Reason             `json:"reason,omitempty"`
	ExitCode        *int               `json:"exit_code"`
	Signal          int                `json:"signal,omitempty"`
	CreatedAt       time.Time          `json:"created_at"`
	UpdatedAt       time.Time          `json:"updated_at"`
	LastOutputAt    time.Time          `json:"last_output_at"`
	OwnerInstanceID string             `json:"owner_instance_id"`
	LeaseEpoch      uint64             `json:"lease_epoch"`
	LeaseExpiresAt  time.Time          `json:"lease_expires_at"`
	CleanupMode     string             `json:"cleanup_mode"` // how ownership is bounded: "session" or "cgroup"
	Cgroup          string             `json:"cgroup,omitempty"`
	Cleanup         Cleanup            `json:"cleanup"`
	Logs            []string           `json:"logs,omitempty"`
	Adopted         bool               `json:"adopted,omitempty"`
	Escapees        []Escapee          `json:"escapees,omitempty"` // with argv, reaped by a reconcile like the session
	Shared          []Escapee          `json:"shared,omitempty"`   // daemons other runs passed to it (shared.go)
	Detail          string             `json:"detail,omitempty"`   // why it ended, when a reconcile closed it
	// The keeper holding the run's descriptors (readopt.go), written before it is handed
	// over: while that keeper lives, the run is its next server's, whoever reconciles.
	Keeper *reaper.Fingerprint `json:"keeper,omitempty"`
	// The agent and its state when last written: corral ls shows it.
	AgentStatus
	AgentMode string `json:"agent_mode,omitempty"` // Info.AgentMode
	// What its notifications said (notify.go): the episodes of its agent's needing
	// the user that ended, and the last need told or seen, so a server after this
	// one never tells it again.
	AgentEpisode  uint64      `json:"agent_episode,omitempty"`
	AgentNotified *NotifyMark `json:"agent_notified,omitempty"`
	AgentBy       string      `json:"agent_by,omitempty"` // how the agent was recognised (Info.AgentBy)
	// What the rate limit held for the end of its window, so a server after this one
	// says it then (nil when nothing is held).
	AgentHeld *HeldNotes `json:"agent_held,omitempty"`
	// The run's worktree, its last counted changes, its agent's conversation id and
	// the run it was restored from (Info's fields of those names).
	Worktree     *workspace.Worktree `json:"worktree,omitempty"`
	Diff         *workspace.Stat     `json:"diff,omitempty"`
	SetupErr     string              `json:"setup_error,omitempty"`
	SessionID    string              `json:"session_id,omitempty"`
	RestoredFrom string              `json:"restored_from,omitempty"`
	Conversed    bool                `json:"conversed,omitempty"`
	// RestoredBy is the run a restore started from this record: a record is restored
	// once.
	RestoredBy string `json:"restored_by,omitempty"`
	// Finished is what finishing its worktree did (Info.Finished).
	Finished *workspace.Finished `json:"finished,omitempty"`
	// Service is a service's attempts, budget and readiness (Info.Service).
	Service *ServiceInfo `json:"service,omitempty"`
	// WaitingFor are the dependencies a run waiting for them (state starting, no
	// process) does not have yet; the record exists from the wait's start, so a
	// server after this one takes the wait over (takeback.go). DependencyErr is why
	// it ended with dependency-failed or dependency-lost (Info's fields of those names).
	WaitingFor    []Dependency `json:"waiting_for,omitempty"`
	DependencyErr string       `json:"dependency_error,omitempty"`
	// StaleDeps are, for a run spawned again because a dependency was lost, the
	// dependency runs by name its wait does not take (it waits for new ones).
	StaleDeps map[string]string `json:"stale_deps,omitempty"`
	// BootID is the boot a record without a process was written in (a run waiting or
	// between attempts): a server takes such a run over only within that boot. After
	// a reboot it is closed lost like every run.
	BootID string `json:"boot_id,omitempty"`
}

// Public is the record without its secret: what corral ls and anything else shown to
// people or programs carry: the secret proves a process is the run's, so it stays in
// the record and the run's environment.
func (rec Record) Public() Record {
	rec.Secret = ""
	return rec
}

// sweep removes temp files a crashed writer left and moves corrupt records aside.
// Called under the registry lock, so no live writer has a temp file open.
func (r *Registry) sweep() error {
	names, err := r.runs.Names()
	if err != nil {
		return fmt.Errorf("registry: %w", err)
	}
	for _, name := range names {
		switch {
		case strings.HasSuffix(name, ".tmp"):
			r.runs.Remove(name)
		case strings.HasSuffix(name, ".json"):
			if _, err := readRecord(r.runs, name); err != nil {
				r.setAside(name, err)
			}
		}
	}
	return nil
}

// setAside moves a corrupt record to runs/corrupt/ and remembers a warning.
func (r *Registry) setAside(name string, cause error) {
	r.cache.forget(name)
	path := r.runs.Join(name)
	corrupt, err := r.runs.Sub("corrupt")
	if err == nil {
		defer corrupt.Close()
		dst := fmt.Sprintf("%s.%d", name, r.now().UnixNano())
		if err = r.runs.Rename(name, corrupt, dst); err == nil {
			r.warnings = append(r.warnings, fmt.Sprintf("corrupt record %s moved to %s: %v", name, corrupt.Join(dst), cause))
			return
		}
	}
	r.warnings = append(r.warnings, fmt.Sprintf("corrupt record %s (%v) could not be moved aside: %v", path, cause, err))
}

// record reads run id's record.
func (r *Registry) record(id string) (Record, error) { return readRecord(r.runs, id+".json") }

// readRecord reads the record in file name of d, checking that it names itself.
func readRecord(d *statefile.Dir, name string) (Record, error) {
	b, err := d.Read(name, recordCap)
	if err != nil {
		return Record{}, err
	}
	return decodeRecord(name, b)
}

// decodeRecord is the record in b, the content of the file name, checked.
func decodeRecord(name string, b []byte) (Record, error) {
	var rec Record
	if err := json.Unmarshal(b, &rec); err != nil {
		return rec, fmt.Errorf("%w: %v", ErrCorruptRecord, err)
	}
	if rec.ID == "" || rec.ID+".json" != name {
		return rec, fmt.Errorf("%w: id %q does not match the file name", ErrCorruptRecord, rec.ID)
	}
	// Every id read from disk is checked before any path is built from it: an owner
	// "../../x" made `corral ls` delete a file outside the state dir.
	err := checkID(rec.ID)
	if err == nil && rec.OwnerInstanceID != "" { // no owner: never written by an instance
		err = checkID(rec.OwnerInstanceID)
	}
	if err != nil {
		return rec, fmt.Errorf("%w: %v", ErrCorruptRecord, err)
	}
	return rec, nil
}

// list reads every record, oldest first. Corrupt ones found now are set aside.
func (r *Registry) list() ([]Record, error) {
	return r.listWith(func(name string) (Record, error) { return readRecord(r.runs, name) }, r.setAside)
}

// listWith is every record as read gives it, oldest first; one that cannot be read
// (but for one removed meanwhile) goes to bad, and is not listed.
func (r *Registry) listWith(read func(name string) (Record, error), bad func(name string, err error)) ([]Record, error) {
	return r.listFiles(read, bad, true)
}

// listFiles is listWith; overlay says whether a batch of final records is overlaid.
func (r *Registry) listFiles(read func(name string) (Record, error), bad func(name string, err error), overlay bool) ([]Record, error) {
	names, err := r.runs.Names()
	if err != nil {
		return nil, err
	}
	return r.listNames(names, read, bad, overlay), nil
}

// sortByCreation sorts recs oldest first, as slices.SortFunc by CreatedAt does (the
// same order, ties included: the same sort on the same comparisons), but sorts their
// indices and moves each record once: a record is over a kilobyte, and sorting a
// thousand of them by value was a twentieth of a server's ls.
func sortByCreation(recs []Record) {
	order := make([]int, len(recs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return recs[a].CreatedAt.Compare(recs[b].CreatedAt) })
	for i := range order { // order[j] is the index of the record that goes to j: follow each cycle once
		if order[i] == i {
			continue
		}
		first, j := recs[i], i
		for order[j] != i {
			k := order[j]
			recs[j], order[j] = recs[k], j
			j = k
		}
		recs[j], order[j] = first, j
	}
}

// List returns every record, oldest first, read under the registry lock (a batch of
// final records overlaid, not folded: corral ls without a server only reads).
func (r *Registry) List() ([]Record, error) {
	var recs []Record
	err := r.lockedFold(true, false, func() (err error) {
		recs, err = r.list()
		return err
	})
	return recs, err
}

// write stores rec atomically: temp file in the same directory, fsync, rename; the
// directory is synced when the registry lock is released. A crash leaves the old
// record or the new one, never half of one. Callers hold the registry lock, so the
// temp name needs no randomness: no other writer can be using it.
func (r *Registry) write(rec Record) error { return r.store(rec, true) }

// store is write, with the fsyncs optional. Only lease renewals skip them: a renewal
// changes nothing but the lease expiry and the last output time; if Corral dies the
// page cache still holds it, and if the OS dies every record is from another boot and
// is closed at the next reconciliation whatever its lease says. The rename keeps it
// atomic for every reader either way.
func (r *Registry) store(rec Record, durable bool) error {
	rec.UpdatedAt = r.now()
	rec.StateDir = r.identity
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	name := rec.ID + ".json"
	tmp := name + "." + r.instance + ".tmp"
	if r.writeFault != nil {
		if ferr := r.writeFault(rec); ferr != nil {
			return fmt.Errorf("registry write %s: %w", rec.ID, &os.PathError{Op: "write", Path: r.runs.Join(tmp), Err: ferr})
		}
	}
	if r.group != nil { // every write of a group is renamed in order at its end, fsynced
		return r.storeDeferred(r.group, name, b)
	}
	if err := r.runs.Replace(name, tmp, b, durable); err != nil {
		r.cache.forget(name) // a failed replace may have left either version
		return fmt.Errorf("registry write %s: %w", rec.ID, err)
	}
	r.wrote(name, b)
	r.dirty = r.dirty || durable
	return nil
}
