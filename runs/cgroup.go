package runs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"corral/ptyhost"
	"corral/reaper"
)

// Ownership by cgroup (ARCHITECTURE.md, "Ownership"). Where Corral can make cgroup v2
// directories (reaper.FindCgroupBase), each run starts directly inside one of its own
// and the cgroup is the run: a setsid daemon stays a member (contained, not escaped),
// cancel empties it (cgroup.kill), pause freezes it, its end is cgroup.events watched
// with inotify, and a reconcile after a crash empties exactly the cgroup its record
// names. No /proc scan runs on a timer then. Otherwise the session model (each run its
// own session, what leaves it found by /proc scans), as before. The choice and its
// reason are the supervisor's (Ownership), shown by corral doctor, and each run's
// cgroup is in its Info and record.

// CgroupRootEnv overrides the config's cgroup_root: a cgroup2 directory to make runs'
// cgroups under, or "off" for sessions (how the tests run both backends).
const CgroupRootEnv = "CORRAL_CGROUP_ROOT"

// WithCgroups owns runs by cgroups under base (a base with no Dir keeps sessions; its
// Reason says why).
func WithCgroups(base reaper.CgroupBase) Option { return func(s *Supervisor) { s.cgroups = base } }

// FindCgroups is the cgroup backend's choice for a config's cgroup_root, which
// CORRAL_CGROUP_ROOT overrides.
func FindCgroups(configured string) reaper.CgroupBase {
	v, env := os.LookupEnv(CgroupRootEnv)
	if env {
		configured = v
	}
	base := reaper.FindCgroupBase(configured)
	if env && v == reaper.CgroupOff {
		base.Reason = "sessions: the cgroup backend is turned off (" + CgroupRootEnv + "=off)"
	}
	return base
}

// Ownership says how this supervisor owns its runs — Dir is the cgroup base, "" for
// sessions — and why.
func (s *Supervisor) Ownership() reaper.CgroupBase {
	if s.cgroups.Reason == "" {
		return reaper.CgroupBase{Reason: "sessions: the cgroup backend was not asked for"}
	}
	return s.cgroups
}

// makeCgroup makes run r's cgroup and sets opts to start its root inside it; the
// returned func closes what the start needed. A cgroup that cannot be made leaves the
// run on its session (said in the events log), never unstarted.
func (r *run) makeCgroup(opts *ptyhost.Options) func() {
	base := r.sup.cgroups.Dir
	if base == "" {
		return func() {}
	}
	cg, err := reaper.NewCgroup(base, r.id)
	if err == nil && r.cgroup != nil {
		// A service's later attempt: the same cgroup made again. The run keeps its
		// Cgroup, which the readers of r.cgroup (no lock) go on using.
		cg = r.cgroup
	}
	var fd int
	if err == nil {
		if fd, err = cg.FD(); err != nil {
			cg.Remove()
		}
	}
	if err != nil {
		r.sup.reg.emit("cgroup-error", "run_id", r.id, "err", err.Error(), "fallback", "session")
		return func() {}
	}
	opts.InCgroup, opts.CgroupFD = true, fd
	r.mu.Lock()
	if r.cgroup != cg {
		r.cgroup = cg
	}
	r.info.Cgroup = cg.Path
	r.mu.Unlock()
	return func() { os.NewFile(uintptr(fd), "cgroup").Close() }
}

// staleCgroup is the age past which an empty run cgroup that no run removed is
// swept at start (reaper.SweepCgroups): a spawn uses its cgroup within milliseconds
// of making it.
const staleCgroup = time.Minute

// cleanupMode is how a run's ownership is bounded, as its record says.
func cleanupMode(i Info) string {
	if i.Cgroup != "" {
		return "cgroup"
	}
	return "session"
}

// dropCgroup removes the run's cgroup once nothing is left in it (zombies do not
// count): the directory is Corral's to clean up, as the record is.
func (r *run) dropCgroup(verified bool) {
	if r.cgroup == nil {
		return
	}
	r.cgroup.Close() // the escape look's cpu.stat; it looks at no ending run
	if !verified {
		return
	}
	if err := r.cgroup.Remove(); err != nil {
		r.sup.reg.emit("cgroup-error", "run_id", r.id, "err", err.Error())
	}
}

// freeze pauses (or resumes) a cgroup run: every member stops where it is, a
// daemon that left the session too (SIGSTOP reaches only the session's groups).
func (r *run) freeze(pause bool) error {
	return r.cgroup.SetFrozen(pause, time.Second)
}

// recordCgroup opens the cgroup a record names, refusing one that is not a run
// cgroup of Corral's (a forged record naming a service's cgroup must not get it
// emptied): named by the run's id, in a base called "corral" on a cgroup2 mount, owned
// by this user.
func recordCgroup(rec Record) (*reaper.Cgroup, error) {
	base := filepath.Dir(filepath.Clean(rec.Cgroup))
	if filepath.Base(base) != "corral" {
		return nil, fmt.Errorf("cgroup %s: %w", rec.Cgroup, reaper.ErrBadCgroup)
	}
	cg, err := reaper.OpenCgroup(base, rec.ID, rec.Cgroup)
	if err != nil {
		return nil, err
	}
	uid, err := cg.Owner()
	if err != nil {
		return nil, err
	}
	if uid != os.Getuid() {
		return nil, fmt.Errorf("cgroup %s is uid %d's: %w", cg.Path, uid, reaper.ErrBadCgroup)
	}
	return cg, nil
}

// cgroupLiveness is liveness for a run with a cgroup: alive while the cgroup has a
// live member (populated counts its whole subtree). An empty one is gone, and
// removed. gone: the cgroup no longer exists (removed from outside) or is empty; the
// caller falls back to what else the record knows (a root or escapee moved out of it
// before it was emptied lives on elsewhere).
func cgroupLiveness(rec Record) (alive bool, why string, gone bool) {
	cg, err := recordCgroup(rec)
	if errors.Is(err, reaper.ErrBadCgroup) {
		return false, "invalid record: " + err.Error() + "; nothing signalled", false
	}
	if err != nil {
		return false, "its cgroup is gone: " + err.Error(), reaper.IsGone(err)
	}
	if p, err := cg.Populated(); err == nil && !p {
		cg.Remove()
		return false, "its cgroup " + cg.Path + " is empty", true
	}
	return true, "", false
}

// watchContained is escape policy fail on the cgroup backend: a member that left the
// run's session ends the run with ownership-escape, as on sessions. (The cgroup holds
// it: this is the strict policy, not ownership.) Its members are looked at when
// something forked since the last look, and on the look after; for these runs only,
// while they live.
func (r *run) watchContained() {
	t := time.NewTicker(r.sup.cfg.EscapeScan)
	defer t.Stop()
	var pace scanPacer
	for {
		select {
		case <-r.ctx.Done():
			return
		case <-t.C:
		}
		if !pace.due(reaper.LastPID()) {
			continue
		}
		root := r.rootPID()
		pids, _ := r.cgroup.Procs()
		var left []reaper.Proc
		for _, pid := range pids {
			if p, err := reaper.ReadProc(pid); err == nil && p.SID != root {
				left = append(left, p)
			}
		}
		if len(left) > 0 {
			r.noteEscapees(left)
		}
	}
}

// cgroupOf is the run's cgroup (nil: none, or not made yet), read under mu: a run
// waiting on its dependencies makes it when it starts, while other runs look.
func (r *run) cgroupOf() *reaper.Cgroup {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cgroup
}

// usage fills i.Usage from the run's cgroup while it lives.
func (r *run) usage(i *Info) {
	if cg := r.cgroupOf(); cg != nil && !i.Ended() {
		if cpu, mem, err := cg.Usage(); err == nil {
			i.Usage = Usage{CPU: cpu, Memory: mem, Known: true}
		}
	}
}

// RecordUsage is RecordUsage for a listing this supervisor answers: a live run of
// its own is read through the cgroup it made, without checking the path its record
// names (a statfs and a stat per run, most of a thousand runs' listing).
func (s *Supervisor) RecordUsage(rec Record) (Usage, bool) {
	if rec.Cgroup == "" || rec.State == Exited {
		return Usage{}, false
	}
	s.mu.Lock()
	r := s.runs[rec.ID]
	s.mu.Unlock()
	if r != nil {
		if cg := r.cgroupOf(); cg != nil && cg.Path == rec.Cgroup {
			cpu, mem, err := cg.UsageKept()
			return Usage{CPU: cpu, Memory: mem, Known: err == nil}, err == nil
		}
	}
	return RecordUsage(rec)
}

// RecordUsage is what the cgroup a live run's record names has used (corral ls reads
// it without asking the server); false for a run on sessions, ended, or whose record
// names no cgroup of Corral's.
func RecordUsage(rec Record) (Usage, bool) {
	if rec.Cgroup == "" || rec.State == Exited {
		return Usage{}, false
	}
	cg, err := recordCgroup(rec)
	if err != nil {
		return Usage{}, false
	}
	cpu, mem, err := cg.Usage()
	return Usage{CPU: cpu, Memory: mem, Known: err == nil}, err == nil
}
