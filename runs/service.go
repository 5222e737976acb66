package runs

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"corral/config"
	"corral/reaper"
	"corral/runs/probe"
)

// A service is a run with a restart policy or probes. It keeps one identity (id,
// name, record, transcript) across its attempts: each attempt is a full lifecycle of
// the run (started, recorded, ended by the one finalizer and verified empty), and
// between two the run is restarting, with no process. Only a verified-empty end
// starts another attempt, so no attempt's tree ever lives beside the next one's.

// RestartPolicy is when an attempt that ended is followed by another.
type RestartPolicy string

// The policies, as corral.toml and --restart name them.
const (
	RestartNo        RestartPolicy = config.RestartNo
	RestartOnFailure RestartPolicy = config.RestartOnFailure // any end but exit 0 and a manual cancel
	RestartAlways    RestartPolicy = config.RestartAlways    // any end but a manual cancel
)

// ParseRestartPolicy reads a policy as --restart takes it ("" is no).
func ParseRestartPolicy(s string) (RestartPolicy, error) {
	switch p := RestartPolicy(strings.TrimSpace(s)); p {
	case "":
		return RestartNo, nil
	case RestartNo, RestartOnFailure, RestartAlways:
		return p, nil
	}
	return "", fmt.Errorf("%w: restart policy %q (want no, on-failure or always)", ErrBadSpec, s)
}

// RestartSpec is a run's restart policy and its pacing. Backoff is the delay before
// the first restart, doubled for each restart counted in the budget up to BackoffMax,
// with ±10% jitter; MaxRestarts restarts (0: no limit) are allowed within Window. An
// attempt that stayed ready (running, for a run without a readiness probe) for Window
// refills the budget.
type RestartSpec struct {
	Policy      RestartPolicy
	Backoff     time.Duration
	BackoffMax  time.Duration
	MaxRestarts int
	Window      time.Duration
}

// restartJSON is RestartSpec as JSON writes it: durations in milliseconds.
type restartJSON struct {
	Policy       RestartPolicy `json:"policy"`
	BackoffMS    int64         `json:"backoff_ms"`
	BackoffMaxMS int64         `json:"backoff_max_ms,omitempty"`
	MaxRestarts  int           `json:"max_restarts"`
	WindowMS     int64         `json:"window_ms,omitempty"`
}

// MarshalJSON writes the pacing's durations in milliseconds.
func (rs RestartSpec) MarshalJSON() ([]byte, error) {
	return json.Marshal(restartJSON{Policy: rs.Policy, BackoffMS: Millis(rs.Backoff), BackoffMaxMS: Millis(rs.BackoffMax),
		MaxRestarts: rs.MaxRestarts, WindowMS: Millis(rs.Window)})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (rs *RestartSpec) UnmarshalJSON(b []byte) error {
	var j restartJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	ms := func(n int64) time.Duration { return time.Duration(n) * time.Millisecond }
	*rs = RestartSpec{Policy: j.Policy, Backoff: ms(j.BackoffMS), BackoffMax: ms(j.BackoffMaxMS), MaxRestarts: j.MaxRestarts, Window: ms(j.WindowMS)}
	return nil
}

// DefaultRestart is policy p with the default pacing: 1 s doubling to 30 s, five
// restarts a minute.
func DefaultRestart(p RestartPolicy) RestartSpec {
	return RestartSpec{Policy: p, Backoff: time.Second, BackoffMax: 30 * time.Second, MaxRestarts: 5, Window: time.Minute}
}

func (rs *RestartSpec) validate() error {
	if rs == nil {
		return nil
	}
	if _, err := ParseRestartPolicy(string(rs.Policy)); err != nil {
		return err
	}
	if rs.Backoff < 0 || rs.BackoffMax < 0 || rs.Window < 0 || rs.MaxRestarts < 0 {
		return fmt.Errorf("%w: negative backoff, window or max_restarts", ErrBadSpec)
	}
	return nil
}

// delay is the wait before restart number n+1 when n restarts are counted.
func (rs RestartSpec) delay(n int) time.Duration {
	d := rs.Backoff
	for i := 0; i < n && d > 0 && (rs.BackoffMax == 0 || d < rs.BackoffMax); i++ {
		d *= 2
	}
	if rs.BackoffMax > 0 && d > rs.BackoffMax {
		d = max(rs.BackoffMax, rs.Backoff)
	}
	if d > 0 { // jitter: services restarted together do not hammer what they share together
		d += time.Duration((rand.Float64()*0.2 - 0.1) * float64(d))
	}
	return d
}

// Readiness is where a run with a readiness probe stands.
type Readiness string

const (
	ReadyStarting Readiness = "starting" // its probe has not passed yet in this attempt
	ReadyOK       Readiness = "ready"    // its probe passed
	ReadyLost     Readiness = "unready"  // it was ready and its probe failed `failure` times since
)

// ServiceInfo is a service's side of Info: its attempts, its budget and its probes.
// It is copied on write: a published Info never changes under its reader.
type ServiceInfo struct {
	Policy      RestartPolicy `json:"policy,omitempty"`
	Attempt     int           `json:"attempt"`  // the current (or last) attempt, from 1
	Restarts    int           `json:"restarts"` // restarts counted in the budget now
	MaxRestarts int           `json:"max_restarts,omitempty"`
	NextAt      time.Time     `json:"next_at,omitzero"`  // restarting: when the next attempt starts
	GaveUp      string        `json:"gave_up,omitempty"` // why no attempt follows the last one
	// Attempts are the ended attempts, oldest first (the last maxAttempts of them).
	Attempts   []Attempt    `json:"attempts,omitempty"`
	Ready      Readiness    `json:"ready,omitempty"` // "" without a readiness probe
	ReadySince time.Time    `json:"ready_at,omitzero"`
	ReadyProbe *ProbeStatus `json:"ready_probe,omitempty"`
	AliveProbe *ProbeStatus `json:"alive_probe,omitempty"`
	// RestartTimes are the restarts counted in the budget, for its window. They are
	// in the record, so a server that takes the run over after a crash or an upgrade
	// goes on with the budget (and the backoff's step, which their number gives)
	// instead of a full one.
	RestartTimes []time.Time `json:"restart_times,omitempty"`
}

// Attempt is one ended attempt of a service: when, and how it ended.
type Attempt struct {
	N             int       `json:"n"`
	StartedAt     time.Time `json:"started_at,omitzero"`
	EndedAt       time.Time `json:"ended_at"`
	Reason        Reason    `json:"reason"`
	ExitCode      *int      `json:"exit_code,omitempty"`
	Signal        int       `json:"signal,omitempty"`
	Detail        string    `json:"detail,omitempty"` // a spawn or setup error, a probe's last output
	VerifiedEmpty bool      `json:"verified_empty"`
}

// ProbeStatus is a probe's latest: its kind and target, its judged state, how many
// checks ran in this attempt, the last result and the last failure's.
type ProbeStatus struct {
	Kind        string        `json:"kind"`
	Target      string        `json:"target"`
	State       probe.State   `json:"state"`
	Checks      int           `json:"checks"`
	Last        probe.Result  `json:"last,omitzero"`
	LastFailure *probe.Result `json:"last_failure,omitempty"`
}

// maxAttempts bounds the attempts a run keeps.
const maxAttempts = 20

// End says how an attempt ended, as a list row does: "exit 3", "signal 9",
// "alive-failed".
func (a Attempt) End() string {
	switch {
	case a.Reason == Exit && a.ExitCode != nil:
		return fmt.Sprintf("exit %d", *a.ExitCode)
	case a.Reason == Signal:
		return fmt.Sprintf("signal %d", a.Signal)
	}
	return a.Reason.String()
}

// isService says the spec makes a service: a restart policy or a probe.
func (s Spec) isService() bool { return s.Restart != nil || s.Ready != nil || s.Alive != nil }

// newServiceInfo is a new service's first attempt.
func newServiceInfo(s Spec) *ServiceInfo {
	svc := &ServiceInfo{Attempt: 1, Policy: RestartNo}
	if s.Restart != nil {
		svc.Policy, svc.MaxRestarts = s.Restart.Policy, s.Restart.MaxRestarts
	}
	if s.Ready != nil {
		svc.Ready = ReadyStarting
	}
	return svc
}

// serviceLocked changes the run's service info, copied first (published copies keep
// theirs); a run without one gets one.
func (r *run) serviceLocked(f func(*ServiceInfo)) {
	var svc ServiceInfo
	if r.info.Service != nil {
		svc = *r.info.Service
	} else {
		svc = *newServiceInfo(r.spec)
	}
	svc.Attempts, svc.RestartTimes = slices.Clip(svc.Attempts), slices.Clip(svc.RestartTimes)
	f(&svc)
	r.info.Service = &svc
}

// isReady reports whether the run's current attempt is ready: running, and its
// readiness probe passed (and has not failed since). False for a run without one.
func (r *run) isReady() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.info.State == Running && r.info.Service != nil && r.info.Service.Ready == ReadyOK
}

// restartLocked is called as an attempt ends, its end (reason, status, cleanup)
// written into r.info: it keeps the attempt and, when the policy (or a manual
// restart) says so, moves the run to restarting and arms the next attempt, and
// reports true. False: the run ends here.
func (r *run) restartLocked() bool {
	if r.info.Service == nil && !r.restartNow {
		return false
	}
	now := r.sup.clock.Now()
	manual := r.restartNow || r.info.Reason == ManualRestart
	delay, why, ok := r.nextLocked(now)
	r.serviceLocked(func(svc *ServiceInfo) {
		svc.Attempts = append(svc.Attempts, r.attemptLocked())
		if n := len(svc.Attempts); n > maxAttempts {
			svc.Attempts = slices.Clone(svc.Attempts[n-maxAttempts:])
		}
		svc.GaveUp = why
		if ok && !manual { // a manual restart is not the service failing: it costs no budget
			svc.RestartTimes = append(svc.RestartTimes, now)
		}
		if ok {
			svc.Restarts, svc.NextAt = len(svc.RestartTimes), now.Add(delay)
		}
		if svc.Ready != "" && ok { // the next attempt starts unready
			svc.Ready, svc.ReadySince = ReadyStarting, time.Time{}
		}
	})
	if !ok {
		return false
	}
	r.restartNow = false
	detail := fmt.Sprintf("attempt %d ended (%s); attempt %d in %s", r.info.Service.Attempt,
		r.info.Service.Attempts[len(r.info.Service.Attempts)-1].End(), r.info.Service.Attempt+1, delay.Round(time.Millisecond))
	// No process now: the last attempt's pid, which the system may give to anything,
	// is no longer the run's (its attempt keeps its end).
	if err := r.moveLocked(Restarting, func(i *Info) { i.PID, i.Fingerprint = 0, reaper.Fingerprint{} }); err != nil {
		return false
	}
	r.changeLocked(EventRestart, detail, nil)
	r.sup.counters.do(func(m *Metrics) { m.ExitTotal[r.info.Reason.String()]++ })
	if delay == 0 { // at once, on no timer: the next attempt is one fork away
		go r.relaunch()
		return true
	}
	r.backoff = r.sup.clock.AfterFunc(delay, r.relaunch)
	return true
}

// nextLocked decides whether another attempt follows and after what delay, or why
// not ("" when the policy simply does not restart this end).
func (r *run) nextLocked(now time.Time) (time.Duration, string, bool) {
	i := r.info
	switch {
	case r.sup.detached.Load() || i.Reason == SupervisorShutdown || r.sup.shuttingDown.Load():
		// The server is going away: never a restart of its own. An attempt that ended
		// by itself while the shutdown was under way (it passed the run as it was
		// ending) is the run's end.
		return 0, "", false
	case !i.Cleanup.VerifiedEmpty:
		return 0, fmt.Sprintf("attempt %d was not verified empty: no attempt starts beside what is left", i.Service.attempt()), false
	case r.restartNow || i.Reason == ManualRestart:
		r.refillLocked()
		return 0, "", true
	case i.Reason != AliveFailed && (r.spec.Restart == nil || r.spec.Restart.Policy == RestartNo):
		return 0, "", false
	case i.Reason == ManualCancel || i.Reason == OrphanReaped || i.Reason == Lost || i.Reason == SetupError:
		return 0, "", false
	case i.Reason == DependencyFailed || i.Reason == DependencyLost:
		// Its dependencies decide: a failed one never lets it start, and a lost one
		// has its spec spawned again to wait for them (an attempt started here would
		// skip that wait).
		return 0, "", false
	case r.spec.Restart.Policy == RestartOnFailure && i.Reason == Exit && i.ExitCode != nil && *i.ExitCode == 0:
		return 0, "", false
	}
	rs := r.pacing()
	times := r.budgetLocked(now)
	r.serviceLocked(func(svc *ServiceInfo) { svc.RestartTimes, svc.Restarts = times, len(times) })
	if rs.MaxRestarts > 0 && len(times) >= rs.MaxRestarts {
		return 0, fmt.Sprintf("%d restarts within %s: no more", len(times), rs.Window), false
	}
	return rs.delay(len(times)), "", true
}

// pacing is the run's restart pacing: its policy's, or, for a run restarted only
// because its liveness probe failed (restart = "no"), the default one.
func (r *run) pacing() RestartSpec {
	if r.spec.Restart == nil || r.spec.Restart.Policy == RestartNo {
		return DefaultRestart(RestartNo)
	}
	return *r.spec.Restart
}

// budgetLocked is the restarts that count against the budget now: those within the
// window, none if the ending attempt was up for a whole window.
func (r *run) budgetLocked(now time.Time) []time.Time {
	rs := r.pacing()
	times := r.info.Service.RestartTimes
	if up := r.upSinceLocked(); rs.Window > 0 && !up.IsZero() && now.Sub(up) >= rs.Window {
		times = nil // it was up for a whole window: the budget is full again
	}
	if rs.Window > 0 {
		times = slices.DeleteFunc(slices.Clone(times), func(t time.Time) bool { return now.Sub(t) >= rs.Window })
	}
	return times
}

// budgetLeftLocked reports whether another restart is allowed now.
func (r *run) budgetLeftLocked() bool {
	rs := r.pacing()
	return rs.MaxRestarts == 0 || len(r.budgetLocked(r.sup.clock.Now())) < rs.MaxRestarts
}

// refillLocked empties the restart budget (a manual restart).
func (r *run) refillLocked() {
	r.serviceLocked(func(svc *ServiceInfo) { svc.RestartTimes, svc.Restarts, svc.GaveUp = nil, 0, "" })
}

// upSinceLocked is since when the ending attempt was up: ready, for a run with a
// readiness probe; started, otherwise.
func (r *run) upSinceLocked() time.Time {
	if r.spec.Ready != nil {
		return r.info.Service.ReadySince
	}
	return r.info.StartedAt
}

func (svc *ServiceInfo) attempt() int {
	if svc == nil {
		return 1
	}
	return svc.Attempt
}

// attemptLocked is the ending attempt, as kept.
func (r *run) attemptLocked() Attempt {
	i := r.info
	a := Attempt{N: i.Service.attempt(), StartedAt: i.StartedAt, EndedAt: i.EndedAt, Reason: i.Reason,
		ExitCode: i.ExitCode, Signal: i.Signal, VerifiedEmpty: i.Cleanup.VerifiedEmpty}
	switch {
	case i.SpawnErr != "":
		a.Detail = i.SpawnErr
	case i.SetupErr != "":
		a.Detail = i.SetupErr
	case i.Reason == AliveFailed && i.Service.AliveProbe != nil && i.Service.AliveProbe.LastFailure != nil:
		a.Detail = i.Service.AliveProbe.LastFailure.Output
	}
	return a
}

// relaunch starts the next attempt, when the backoff is over (or at once on a manual
// restart). The run takes a fresh context, finalizer and watchdog; its identity,
// transcript (continued) and output log stay.
func (r *run) relaunch() {
	r.sup.mu.Lock()
	closed := r.sup.closed
	r.sup.mu.Unlock()
	r.mu.Lock()
	if r.info.State != Restarting || r.sup.detached.Load() {
		r.mu.Unlock()
		return
	}
	if closed { // shutting down: no attempt follows, and the run ends here
		r.stopRestartingLocked(SupervisorShutdown)
		r.mu.Unlock()
		return
	}
	r.backoff = nil
	r.ctx, r.cancel = context.WithCancelCause(context.Background())
	r.once = new(sync.Once)
	r.cmd, r.proc, r.exitSeen, r.ending, r.escapees = nil, nil, false, false, nil
	// A worktree's setup steps ran before the first attempt, and succeeded (a failed
	// one ends the run, setup-error, with no attempt after): the worktree is set up.
	r.runSetup = false
	r.resumeLocked()
	r.moveLocked(Starting, func(i *Info) {
		i.Reason, i.ExitCode, i.Signal, i.SpawnErr, i.SetupErr = ReasonNone, nil, 0, "", ""
		i.PID, i.Fingerprint, i.StartedAt, i.EndedAt = 0, reaper.Fingerprint{}, time.Time{}, time.Time{}
		i.Cleanup, i.Escapees, i.Cgroup = Cleanup{}, 0, ""
		forgetAgentLocked(i) // the next attempt's agent is judged anew (agent_attempt.go)
	})
	r.serviceLocked(func(svc *ServiceInfo) {
		svc.Attempt++
		svc.NextAt = time.Time{}
		svc.ReadyProbe, svc.AliveProbe = nil, nil
	})
	r.mu.Unlock()
	r.renewAgent()
	r.wd.Rearm()
	if err := r.start(); err != nil {
		r.sup.reg.emit("restart-error", "run_id", r.id, "err", err.Error())
	}
}

// stopRestartingLocked ends a run waiting out its backoff, for reason: no attempt
// follows. Called by stop.
func (r *run) stopRestartingLocked(reason Reason) bool {
	if r.backoff != nil {
		r.backoff.Stop()
		r.backoff = nil
	}
	r.changeLocked(EventCancel, reason.String(), nil)
	r.moveLocked(Exited, func(i *Info) {
		// The run ends here with no process: its end is reason's alone (the last
		// attempt's exit or signal stays in its attempt).
		i.Reason, i.EndedAt, i.ExitCode, i.Signal = reason, r.sup.clock.Now(), nil, 0
		if i.Service != nil {
			svc := *i.Service
			svc.NextAt = time.Time{}
			i.Service = &svc
		}
	})
	r.changeLocked(EventExit, reason.String(), nil)
	r.sup.countExit(reason)
	r.doneLocked()
	return true
}

// Restart starts run id again with a full restart budget: a live run's attempt is
// ended (manual-restart) and the next starts at once, a restarting run's backoff is
// cut short. An ended run is started again as a new run of the same spec, whose id
// is returned (its own, for a live run). A run still waiting for its dependencies
// keeps waiting, the same run: it has nothing to restart yet.
func (s *Supervisor) Restart(id string) (string, error) {
	r, err := s.get(id)
	if err != nil {
		return "", err
	}
	r.mu.Lock()
	switch {
	case r.info.Waiting():
		// Nothing of it runs yet: it keeps its place and its wait, and starts once its
		// dependencies hold, with a full budget. Ending it and starting it here would
		// skip the wait.
		if r.info.Service != nil {
			r.refillLocked()
		}
		r.mu.Unlock()
		return id, nil
	case r.info.State == Exited:
		spec, sid, conversed := r.spec, r.info.SessionID, r.info.Conversed
		r.mu.Unlock()
		if argv, ok := s.resumeArgv(spec, sid, conversed); ok {
			// Its conversation goes on in the new run, unless a live run holds it
			// (one restored meanwhile, or by another Corral of the state dir): two
			// CLIs writing one conversation mix it up. One restart or restore at a
			// time looks and starts (restoreMu): two restarts at once (the UI's and
			// the web page's) both found it free.
			restoreMu.Lock()
			defer restoreMu.Unlock()
			var recs []Record
			if s.reg != nil {
				recs, _ = s.reg.List()
			}
			if by := s.heldSessions(recs)[sid]; by != "" {
				return "", fmt.Errorf("restart %s: %w (%s holds %s): end that run first", id, ErrConversationHeld, by, sid)
			}
			spec.Argv = argv
		}
		return s.spawn(spec, restoring{})
	case r.info.State == Restarting:
		r.refillLocked()
		if r.backoff != nil && r.backoff.Stop() {
			r.backoff = nil
			r.mu.Unlock()
			r.relaunch()
			return id, nil
		}
		r.mu.Unlock() // its timer is firing now: the attempt starts anyway
		return id, nil
	}
	r.restartNow = true
	r.mu.Unlock()
	r.stop(ManualRestart)
	return id, nil
}
