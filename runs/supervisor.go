package runs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"corral/config"
	"corral/ptyhost/keys"
	"corral/ptyhost/screen"
	"corral/reaper"
	"corral/runs/agentstate"
	"corral/runs/internal/statefile"
	"corral/runs/keeper"
	"corral/runs/workspace"
	"corral/watchdog"
)

// Supervisor owns runs: it starts them, stops them for one recorded reason each, and
// reports on them. It is safe for concurrent use.
type Supervisor struct {
	cfg    config.Defaults
	clock  watchdog.Clock
	logDir string
	logs   *statefile.Dir // logDir, held open: transcripts never follow a link
	hub    hub

	// spawnMu covers starting a process and registering it, so a reaper of reparented
	// descendants never sees a child it cannot attribute.
	spawnMu sync.Mutex
	writers sync.WaitGroup // runs' write-behind goroutines (persist.go)

	mu     sync.Mutex
	runs   map[string]*run
	order  []string
	closed bool

	reg       *Registry         // nil: nothing is persisted
	policy    Policy            // what reconciliation does with a live orphan
	detect    bool              // WithEscapeDetection was given
	escapes   *escapeDetector   // subreaper + escape scans; nil when off
	looks     looks             // looks at the system that ending runs share (sharedlook.go)
	screens   bool              // keep an emulated screen for every PTY run
	agents    *agentstate.Set   // rules of the agents whose state is followed; nil: none
	cgroups   reaper.CgroupBase // where runs' cgroups are made (cgroup.go); no Dir: sessions
	worktrees config.Worktree   // the server config's [worktree]: root and setup (worktree.go)
	keeper    *keeper.Client    // holds every run's descriptors so it outlives this server (readopt.go)
	detached  atomic.Bool       // Detach: the runs are the next server's; none is finalized here
	takeBack  bool              // takes over a dead owner's runs without a process (takeback.go)
	notifyCfg NotifyConfig
	deps      depWake // wakes the runs waiting on dependencies (depends_wait.go)
	counters  counters
	hurry     context.Context // cancelled to cut every run's grace short (SIGKILL now)
	hurryNow  context.CancelFunc
	stopBG    func()        // stops the background goroutine
	bgDone    chan struct{} // closed when it has stopped
	trees     treeCache
	later     later      // background reconciliation (reconcile_later.go)
	leased    time.Time  // until when this instance's lease was last renewed (the heartbeat's only)
	beats     beatSignal // closed at each heartbeat: an attached UI's stream pushes what moved then
	leaseErr  bool       // the last renewal failed, and was logged (the heartbeat's only)
	beatMu    sync.Mutex // one heartbeat at a time: the background loop's, and one asked for (the shutdown's last)
	sent      sentRuns   // what each viewer's snapshots carried (viewers.go)
	win       windows    // the viewers' sizes of each run (viewers.go)

	// The keeper that started this server (its parent), as the records of the runs
	// handed to it name it; nil without one.
	keptBy *reaper.Fingerprint

	// shuttingDown: Shutdown has begun; runs' records are written behind, in groups.
	shuttingDown atomic.Bool

	// diffQuiet, when set, replaces diffQuiet (worktree_diff.go): tests shorten it.
	diffQuiet time.Duration

	// finishingAt maps a worktree's path to the run whose finish works on it: two
	// runs sharing one worktree (a restored run and its older record) are not
	// finished at once (finish.go).
	finishingAt sync.Map

	// Test hooks: called on the run's goroutine at the named point.
	startHook    func(id string)
	finalizeHook func(id string)
	shutdownHook func() // Shutdown: every run stopped, its look not taken yet
}

// Option configures a Supervisor.
type Option func(*Supervisor)

// WithDefaults sets the defaults (grace, caps, sizes) runs take.
func WithDefaults(d config.Defaults) Option { return func(s *Supervisor) { s.cfg = d } }

// WithClock drives every deadline and timestamp from c (tests use a fake clock).
func WithClock(c watchdog.Clock) Option { return func(s *Supervisor) { s.clock = c } }

// WithLogDir writes each run's transcript into dir (created if needed, mode 0700).
func WithLogDir(dir string) Option { return func(s *Supervisor) { s.logDir = dir } }

// WithRegistry persists every run in reg and renews their leases.
func WithRegistry(reg *Registry) Option { return func(s *Supervisor) { s.reg = reg } }

// WithPolicy sets what reconciliation does with a live orphan (default terminate).
func WithPolicy(p Policy) Option { return func(s *Supervisor) { s.policy = p } }

// WithScreens keeps an emulated terminal screen (screen.Screen) for every PTY run, fed
// as output arrives; the UI renders it. Headless front ends leave it off: emulation
// costs CPU per byte.
func WithScreens() Option { return func(s *Supervisor) { s.screens = true } }

// WithEscapeDetection makes Corral a child subreaper and scans runs for processes that
// leave their session (ARCHITECTURE.md, "Ownership"). Off by default because it changes
// the whole process: every orphaned descendant is reparented to it and reaped by it.
func WithEscapeDetection() Option { return func(s *Supervisor) { s.detect = true } }

// New returns a Supervisor. With a registry or escape detection it starts one
// background goroutine (lease heartbeat, escape scan), stopped by Shutdown.
func New(opts ...Option) (*Supervisor, error) {
	s := &Supervisor{cfg: config.Default(), clock: watchdog.RealClock(), runs: map[string]*run{},
		policy: PolicyTerminate, looks: newLooks()}
	s.counters.m = newMetrics()
	s.hurry, s.hurryNow = context.WithCancel(context.Background())
	for _, o := range opts {
		o(s)
	}
	if s.logDir != "" {
		var err error
		if s.logs, err = openLogDir(s.logDir); err != nil {
			return nil, fmt.Errorf("log dir: %w", err)
		}
	}
	if s.cgroups.Dir != "" {
		reaper.SweepCgroups(s.cgroups.Dir, staleCgroup)
	}
	if s.keeper != nil {
		if fp, err := reaper.Identify(os.Getppid()); err == nil { // the keeper starts the server as its child
			s.keptBy = &fp
		}
	}
	if s.detect {
		var err error
		if s.escapes, err = newEscapeDetector(s.liveRuns, &s.spawnMu, s.reg, s.cgroups.Dir != ""); err != nil {
			return nil, err
		}
		if s.keeper != nil {
			s.escapes.keeper = os.Getppid() // the keeper starts the server as its child
		}
		if s.cgroups.Dir != "" {
			s.escapes.base = &reaper.Cgroup{Path: s.cgroups.Dir}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.stopBG, s.bgDone = cancel, make(chan struct{})
	go func() {
		defer close(s.bgDone)
		if s.reg != nil || s.escapes != nil {
			s.background(ctx)
		}
	}()
	return s, nil
}

// Spawn starts a run and returns its id. A spec that cannot be run is rejected with
// ErrBadSpec and no run. A process that cannot be started still makes a run, ended
// with reason spawn-error, and the start error is returned (wrapped) with its id.
func (s *Supervisor) Spawn(spec Spec) (string, error) {
	return s.spawn(spec, restoring{})
}

// restoring is what a restore gives the run it starts (restore.go): the run whose
// record it comes from and the conversation id it resumes.
type restoring struct {
	from, session string
	id            string // the new run's id, chosen (and claimed on the lost record) before it is made
	// lost is, for a run spawned again because a dependency was lost (depends_wait.go),
	// the dependency runs by name that its wait must not take: it waits for new ones.
	lost map[string]string
}

func (s *Supervisor) spawn(spec Spec, rs restoring) (string, error) {
	if err := spec.validate(); err != nil {
		return "", err
	}
	agent, err := s.agentFor(spec)
	if err != nil {
		return "", err
	}
	session := rs.session
	if agent != nil && agent.Session != nil && len(spec.Argv) > 0 {
		// The conversation's id, pinned at launch where the CLI takes one (or named by
		// the command already); else it is learnt from what the CLI reports.
		var id string
		spec.Argv, id = agent.Session.Launch(agent, spec.Argv, newSessionID)
		if session == "" {
			session = id
		}
	}
	named := spec.Name != ""
	spec = spec.withDefaults(s.cfg)
	var wt *workspace.Worktree
	var setup bool
	if spec.Worktree != nil {
		// Made before the run exists: a worktree that cannot be made is an error and
		// no run, the run list as it was.
		if spec, wt, setup, err = s.makeWorktree(spec); err != nil {
			return "", err
		}
	}
	r, err := s.newRun(spec, named, rs.id)
	if err != nil {
		if wt != nil && spec.Worktree.Use == nil {
			workspace.UndoCreate(s.gitContext(context.Background()), *wt, gitEnvOf(spec))
		}
		return "", err
	}
	if session != "" || rs.from != "" {
		r.mu.Lock()
		r.info.SessionID, r.info.RestoredFrom = session, rs.from
		r.mu.Unlock()
	}
	if wt != nil {
		w := *wt
		r.mu.Lock()
		r.wt, r.runSetup = wt, setup
		r.info.Worktree = &w
		r.mu.Unlock()
		r.startDiffer(gitEnvOf(spec)) // before the first byte: the reader pokes it
	}
	if agent != nil {
		r.startAgent(agent) // before the first byte: the reader may call it at once
	}
	r.watchForeground()
	// Published outside s.mu: Subscribe takes the hub's lock before s.mu.
	r.change(EventSpawn, string(spec.Kind()), nil)
	if len(spec.DependsOn) > 0 { // it starts when its dependencies let it (depends_wait.go)
		r.mu.Lock()
		r.stale = rs.lost // in its record: a server that takes its wait over skips them too
		r.mu.Unlock()
		var shown []Dependency
		done, err := r.depStep(rs.lost, &shown)
		if !done { // already waiting when Spawn returns, as its row says
			go r.awaitDeps(rs.lost, shown)
		}
		if err != nil {
			return r.id, fmt.Errorf("spawn %s: %w", r.id, err)
		}
		return r.id, nil
	}
	if err := r.start(); err != nil {
		return r.id, fmt.Errorf("spawn %s: %w", r.id, err)
	}
	return r.id, nil
}

// newRun makes the run of spec; named says its name was given (not derived from its
// command), and so must not be a prefix of another run's id. id is the run's id when
// it was chosen before (a restore's claim), "" for a new one.
func (s *Supervisor) newRun(spec Spec, named bool, id string) (*run, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrShutdown
	}
	if named {
		for _, id := range s.order {
			if strings.HasPrefix(id, spec.Name) {
				return nil, fmt.Errorf("%w: the name %q is the start of run %s's id, so it could not name one run: choose another name",
					ErrBadSpec, spec.Name, id)
			}
		}
	}
	if id == "" {
		id = newID()
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	r := &run{id: id, secret: newSecret(), spec: spec, sup: s, ctx: ctx, cancel: cancel,
		out: newOutputLog(s.cfg.OutputCap), done: make(chan struct{}), once: new(sync.Once), echo: make(chan struct{}, 1), again: make(chan struct{}, 1)}
	r.info = Info{ID: id, Name: spec.Name, Kind: spec.Kind(), Spec: spec, State: Starting,
		Cols: spec.Cols, Rows: spec.Rows, CreatedAt: s.clock.Now()}
	if spec.isService() {
		r.info.Service = newServiceInfo(spec)
	}
	s.logPaths(r)
	r.wd = s.newWatchdog(spec, r, 0, 0)
	if s.screens && spec.PTY {
		r.screen = screen.NewScreen(int(spec.Cols), int(spec.Rows))
		r.screen.SetHistoryLimit(s.cfg.ScrollbackLines)
		r.screen.SetFocus(false) // nobody looks at a new run until a UI says so
	}
	s.runs[id] = r
	s.order = append(s.order, id)
	return r, nil
}

// logPaths names the run's transcripts and recording in the log dir, if there is one.
func (s *Supervisor) logPaths(r *run) {
	if s.logDir == "" {
		return
	}
	r.info.Transcript = filepath.Join(s.logDir, r.id+".log")
	if !r.spec.PTY {
		r.info.StderrTranscript = filepath.Join(s.logDir, r.id+".stderr.log")
	} else {
		r.info.Cast = filepath.Join(s.logDir, r.id+".cast")
	}
}

// newWatchdog is the run's watchdog; elapsed is how long the run has already run and
// silent how long it has gone without output (a run resumed from a previous server),
// which its deadlines count.
func (s *Supervisor) newWatchdog(spec Spec, r *run, elapsed, silent time.Duration) *watchdog.Watchdog {
	rule := watchdog.DeriveRule{Factor: s.cfg.NoOutputFactor, Min: s.cfg.NoOutputMin,
		Max: s.cfg.NoOutputMax, Margin: s.cfg.NoOutputMargin}
	cfg := watchdog.Config{
		Overall:    elapsedFor(spec.Timeout, elapsed),
		NoOutput:   watchdog.Derive(spec.Timeout, spec.NoOutputTimeout, rule),
		Warn:       s.cfg.WarnFraction,
		EchoWindow: s.cfg.EchoWindow,
		Silent:     silent,
	}
	return watchdog.New(cfg, s.clock, func(c watchdog.Cause) {
		if c == watchdog.Overall {
			r.stop(OverallTimeout)
		} else {
			r.stop(NoOutputTimeout)
		}
	})
}

// newID returns a short random run id. Ids must not collide across Corral instances
// sharing a state dir, so they are random rather than sequential.
func newID() string {
	var b [6]byte
	rand.Read(b[:])
	return "r" + hex.EncodeToString(b[:])
}

// newSessionID is a new conversation id for an agent that takes one at launch: a
// random (version 4) UUID, the form they accept.
func newSessionID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// newSecret returns a run's secret (RunSecretEnv): 128 random bits, which nobody can
// guess from what Corral shows.
func newSecret() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (s *Supervisor) get(id string) (*run, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.runs[id]
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrUnknownRun, id)
	}
	return r, nil
}

// Cancel ends a run with reason manual-cancel. Cancelling an ended run, or cancelling
// twice, changes nothing and is not an error.
func (s *Supervisor) Cancel(id string) error { return s.Stop(id, ManualCancel) }

// Stop ends a run for the given reason through the same path as every other cause.
func (s *Supervisor) Stop(id string, reason Reason) error {
	r, err := s.get(id)
	if err != nil {
		return err
	}
	r.stop(reason)
	return nil
}

// Wait blocks until the run has exited (verified empty) or ctx ends, and returns its
// final Info.
func (s *Supervisor) Wait(ctx context.Context, id string) (Info, error) {
	r, err := s.get(id)
	if err != nil {
		return Info{}, err
	}
	select {
	case <-r.done:
		return r.snapshot(), nil
	case <-ctx.Done():
		return r.snapshot(), ctx.Err()
	}
}

// Info returns one run's current state.
func (s *Supervisor) Info(id string) (Info, error) {
	r, err := s.get(id)
	if err != nil {
		return Info{}, err
	}
	i := r.snapshot()
	r.usage(&i)
	return i, nil
}

// Snapshot returns every run's current state, oldest first, with what the cgroups of
// the runs someone looks at have used (the details pane shows it for the run on
// screen): reading every run's cgroup files on every attached UI's once-a-second
// snapshot was most of an attached server's idle CPU (50 runs: 100 files a second).
func (s *Supervisor) Snapshot() []Info {
	rs := s.ordered()
	out := make([]Info, len(rs))
	for i, r := range rs {
		out[i] = r.snapshot()
		if r.looked() {
			r.usage(&out[i])
		}
	}
	return out
}

// ordered is every run, oldest first, as s holds them now.
func (s *Supervisor) ordered() []*run {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := make([]*run, 0, len(s.order))
	for _, id := range s.order {
		rs = append(rs, s.runs[id])
	}
	return rs
}

// WaitingRuns is Snapshot's runs that wait for dependencies, in its order: what
// corral ls adds to the records (a run waiting may have none yet). Only those are
// copied: a Snapshot of a thousand runs for the few that wait was a twentieth of a
// listing's time.
func (s *Supervisor) WaitingRuns() []Info {
	rs := s.ordered()
	var out []Info
	for _, r := range rs {
		r.mu.Lock()
		waiting := r.info.Waiting()
		r.mu.Unlock()
		if waiting {
			out = append(out, r.snapshot())
		}
	}
	return out
}

// Subscribe returns the current runs and a subscription to every later event, with no
// gap between them: an event published while the snapshot is taken is delivered too
// (Info.Seq tells a duplicate).
func (s *Supervisor) Subscribe() ([]Info, *Subscription) {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	s.mu.Lock()
	snap := make([]Info, 0, len(s.order))
	for _, id := range s.order {
		if p := s.runs[id].latest.Load(); p != nil {
			snap = append(snap, *p)
		}
	}
	s.mu.Unlock()
	return snap, s.hub.addLocked()
}

// Remove forgets an ended run: it leaves the supervisor, its record leaves the
// registry (corral ls), and EventRemoved tells every watcher (attached UIs drop its
// row). A record whose run was not verified empty stays, for a reconcile to finish.
func (s *Supervisor) Remove(id string) error {
	r, err := s.get(id)
	if err != nil {
		return err
	}
	select {
	case <-r.done: // its final record has landed: nothing writes it again
	default:
		return fmt.Errorf("remove %s: %w", id, ErrNotEnded)
	}
	s.mu.Lock()
	_, present := s.runs[id]
	delete(s.runs, id)
	s.order = slices.DeleteFunc(s.order, func(x string) bool { return x == id })
	s.mu.Unlock()
	if !present { // removed by a racing call
		return nil
	}
	if r.screen != nil {
		if c, rows := r.screen.Size(); c*rows >= bigScreen {
			freeMemory() // a large screen's cells go with the run
		}
	}
	r.mu.Lock()
	r.changeLocked(EventRemoved, "", nil)
	keep := s.reg == nil || r.unrecorded || !r.info.Cleanup.VerifiedEmpty
	r.mu.Unlock()
	if keep {
		return nil
	}
	if err := s.reg.remove(id); err != nil {
		return fmt.Errorf("remove %s: its record stays in the registry: %w", id, err)
	}
	return nil
}

// Shutdown refuses new runs, stops every live run with reason supervisor-shutdown and
// waits until all have exited. If ctx ends first, every grace still running is cut
// short (SIGKILL at once) and Shutdown waits for the bounded sweeps: a deadline may
// shorten the politeness, never the cleanup.
func (s *Supervisor) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	rs := make([]*run, 0, len(s.runs))
	for _, r := range s.runs {
		rs = append(rs, r)
	}
	s.mu.Unlock()
	// Every run is stopped first (its exiting record written behind, in groups: no
	// fsync each on this loop), then one look for every run's escapees is taken, after
	// the last run was stopped and before any is ended: a process that leaves its
	// session or cgroup while the others are being stopped is still seen. Then every
	// run is ended at once (endAll: every cgroup signalled before any grace, one wait
	// for all), and the finalizers finish their runs.
	s.shuttingDown.Store(true)
	if s.reg != nil {
		s.reg.batchFinal(true) // the final records in one file, not a file each
		defer s.reg.batchFinal(false)
		s.reg.events.hold() // and the events in a few writes, not one each
		defer s.reg.events.release()
	}
	look := make(chan struct{})
	stopped := make([]*run, 0, len(rs))
	ready := make([]chan struct{}, 0, len(rs)) // closed by each stopped run's finalizer (endAll)
	for _, r := range rs {
		r.mu.Lock()
		running := r.info.State == Running // one still starting has no process yet: it looks itself
		var c chan struct{}
		if running {
			c = make(chan struct{})
			r.shutLook, r.shutReady = look, c
		}
		r.mu.Unlock()
		if r.stop(SupervisorShutdown) && running {
			stopped, ready = append(stopped, r), append(ready, c)
		}
	}
	if s.shutdownHook != nil {
		s.shutdownHook()
	}
	s.lookAll(stopped) // one last look for every run's escapees, not one each
	s.endAll(ctx, stopped, ready)
	close(look)
	s.stopLater() // orphans a pass stole are ended and their records closed first
	swept := make(chan struct{})
	go func() { // while the runs end: none of these records is theirs
		defer close(swept)
		s.sweepOthers(rs)
	}()
	done := make(chan struct{})
	go func() {
		for _, r := range rs {
			<-r.done
		}
		close(done)
	}()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		s.Hurry()
		select {
		case <-done:
		case <-time.After(3*s.cfg.Sweep + time.Second):
			err = fmt.Errorf("shutdown: runs still not verified empty: %w", ctx.Err())
		}
	}
	s.waitWriters(ctx) // the final records of runs whose write was retried: none is lost at exit
	<-swept
	for _, r := range rs { // a run's cgroup not verified empty then, and emptied since
		if i := r.snapshot(); r.cgroup != nil && i.State == Exited && !i.Cleanup.VerifiedEmpty {
			if p, err := r.cgroup.Populated(); err == nil && !p {
				r.cgroup.Remove()
			}
		}
	}
	s.stopBG()
	<-s.bgDone
	if s.escapes != nil && s.escapes.contained {
		s.escapes.reapOrphans() // what the runs' own reaping left: SIGCHLD was not acted on meanwhile
	}
	s.heartbeat() // persist the final counters
	if err == nil {
		s.logs.Close() // every run has ended: no transcript is opened any more
	}
	return err
}

// openLogDir opens the log dir (created 0700 if missing) from its parent, so that the
// log dir itself is never a link: <state>/logs -> elsewhere would put a run's logs
// there. The parent is the state dir, which may be a link the user owns.
func openLogDir(dir string) (*statefile.Dir, error) {
	parent := filepath.Dir(dir)
	if err := config.EnsureStateDir(parent); err != nil {
		return nil, err
	}
	p, err := statefile.Open(parent)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	return p.Sub(filepath.Base(dir))
}

// Hurry cuts the grace of every run being ended now or later: what has not exited on
// its stop signal is SIGKILLed at once. (A second signal to Corral, a shutdown
// deadline.)
func (s *Supervisor) Hurry() { s.hurryNow() }

// Detach lets go of every run without ending it, for a server that hands its runs to
// the next one through its keeper (corral server --upgrade): no run starts
// or ends here from now on; the readers stop and what they read is written out; the
// processes, their records and the keeper's copies stay as they are.
func (s *Supervisor) Detach() {
	// Detached before closed: whoever finds the supervisor closed (a waiting run about
	// to start) knows then whether it is handed over.
	s.detached.Store(true)
	s.mu.Lock()
	s.closed = true
	rs := make([]*run, 0, len(s.runs))
	for _, r := range s.runs {
		rs = append(rs, r)
	}
	s.mu.Unlock()
	s.stopBG()
	<-s.bgDone
	for _, r := range rs {
		r.wd.Stop()
		r.mu.Lock()
		p := r.proc
		r.mu.Unlock()
		if p != nil {
			p.Detach()
		}
		r.closeTranscripts()
	}
}

// snapshot is the run's info with the live watchdog state.
func (r *run) snapshot() Info {
	r.mu.Lock()
	i := r.info
	r.mu.Unlock()
	i.Watchdog = r.wd.State()
	if !i.Watchdog.LastOutput.IsZero() { // else its record's (a run of a server before)
		i.LastOutputAt = i.Watchdog.LastOutput
	}
	return i
}

// modesOf returns the input-encoding modes the run's app asked for, as of the last
// byte of output read: its screen's, or, for a PTY run without one (a supervisor
// without WithScreens), the tracker's. A pipe run's are zero: nothing switches them.
func (r *run) modesOf() keys.Modes {
	if r.screen != nil {
		return r.screen.Modes()
	}
	return r.modes.Modes()
}

// Screen returns a PTY run's emulated screen (nil for pipe runs, adopted runs and
// supervisors without WithScreens). It stays valid after the run ends.
func (s *Supervisor) Screen(id string) (*screen.Screen, error) {
	r, err := s.get(id)
	if err != nil {
		return nil, err
	}
	return r.screen, nil
}

// Registry is the supervisor's registry, or nil.
func (s *Supervisor) Registry() *Registry { return s.reg }
