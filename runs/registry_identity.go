package runs

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// A state dir's identity: a random id made with the dir, kept in <state>/identity
// together with the directory's own device and inode, and written into every record.
// A copy of a state dir (cp -a, a restored backup, rsync) carries the file, but not
// the inode: opened there, the file names another directory, so the copy takes an
// identity of its own, and the records it copied — the original's — are never its to
// reap. A reconcile in a copy once killed the original server's live runs: their owner
// instance's lock, copied, was free in the copy, and its lease expired there.
//
// Records written before state dirs had an identity carry none, and cannot be told
// from a copy's. They are judged as before, trusted only as far as their secret
// proves them: a process is signalled only if it carries the run's secret (or, for a
// record older than secrets, is the recorded root, by pid and start time, carrying the
// run id) or descends from one that does; the escapees they list prove nothing by
// themselves (claimOf). The first write by this version (a renewal, a steal) stamps a
// record with the dir's identity.

// identityFile is the state dir's identity file.
const identityFile = "identity"

// stateIdentity is the content of the identity file.
type stateIdentity struct {
	ID  string `json:"id"`
	Dev uint64 `json:"dev"`
	Ino uint64 `json:"ino"`
}

// loadIdentity reads the state dir's identity, making one if it has none or if the
// one it has was made for another directory (this one is a copy). Called under the
// registry lock, so two Corrals opening a new state dir at once agree on one.
func (r *Registry) loadIdentity() error {
	dev, ino, err := r.root.FileID()
	if err != nil {
		return fmt.Errorf("state dir identity: %w", err)
	}
	b, err := r.root.Read(identityFile, leaseCap)
	var cur stateIdentity
	switch {
	case err == nil && json.Unmarshal(b, &cur) == nil && checkIdentity(cur.ID) == nil:
		if cur.Dev == dev && cur.Ino == ino {
			r.identity = cur.ID
			return nil
		}
		r.warnings = append(r.warnings, fmt.Sprintf("state dir %s is a copy (or was moved): its identity file "+
			"names another directory; this one gets its own identity, and the runs recorded in the "+
			"other (identity %s) are left to it", r.dir, cur.ID))
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("state dir identity: %w", err)
	}
	var raw [12]byte
	rand.Read(raw[:])
	next := stateIdentity{ID: "s" + hex.EncodeToString(raw[:]), Dev: dev, Ino: ino}
	if b, err = json.Marshal(next); err == nil {
		err = r.root.Replace(identityFile, identityFile+"."+r.instance+".tmp", b, true)
	}
	if err == nil {
		err = r.root.Sync()
	}
	if err != nil {
		return fmt.Errorf("state dir identity: %w", err)
	}
	r.identity = next.ID
	return nil
}

// checkIdentity accepts only what loadIdentity writes: an identity read from disk is
// compared and shown, never trusted to be anything else.
func checkIdentity(id string) error {
	if len(id) != 25 || id[0] != 's' {
		return fmt.Errorf("bad state dir identity %q", id)
	}
	if _, err := hex.DecodeString(id[1:]); err != nil {
		return fmt.Errorf("bad state dir identity %q", id)
	}
	return nil
}

// Identity is the state dir's identity, as its records carry it.
func (r *Registry) Identity() string { return r.identity }

// foreignRecord says why rec belongs to another state dir, or "" when it is this
// one's (or carries no identity: written before state dirs had one).
func (r *Registry) foreignRecord(rec Record) string {
	if rec.StateDir == "" || rec.StateDir == r.identity {
		return ""
	}
	return fmt.Sprintf("recorded in another state dir (identity %.40q; this dir is %s): this dir is a copy of that "+
		"one, or was moved; its runs are that dir's to reconcile; nothing signalled", rec.StateDir, r.identity)
}
