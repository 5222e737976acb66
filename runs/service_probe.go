package runs

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"corral/config"
	"corral/runs/probe"
)

// startProbes starts the probes of the attempt that has just started running.
func (r *run) startProbes() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.info.State != Running || r.info.Service == nil {
		return
	}
	if p := r.spec.Ready; p != nil {
		r.probes = append(r.probes, r.newProbeLocked(*p, r.onReadyResult, r.onReadyChange))
	}
	if p := r.spec.Alive; p != nil {
		r.probes = append(r.probes, r.newProbeLocked(*p, r.onAliveResult, r.onAliveChange))
	}
	for _, m := range r.probes {
		m.Start()
	}
}

// newProbeLocked is the monitor of probe p for this attempt; a log probe's matcher
// is fed by the run's reader from now on and checks at once when its line comes.
func (r *run) newProbeLocked(p config.Probe, onResult, onChange func(probe.State, probe.Result)) *probe.Monitor {
	var lm *probe.LogMatcher
	var m *probe.Monitor
	if p.Kind == config.ProbeLog {
		lm, _ = probe.NewLogMatcher(p.Target, func() { m.Poke() }) // checked by validate
	}
	m = probe.NewMonitor(p, probe.CheckFor(p, r.execProbe, lm), r.sup.clock, onResult, onChange)
	if lm != nil {
		r.logProbe.Store(lm)
	}
	return m
}

// stopProbes stops the attempt's probes and waits for a check in flight (an exec
// probe's process is ended with it).
func (r *run) stopProbes() {
	r.mu.Lock()
	ms := r.probes
	r.probes = nil
	r.mu.Unlock()
	r.logProbe.Store(nil)
	for _, m := range ms {
		m.Stop()
	}
}

// noteProbeLocked keeps a check's result in the probe's status (which) without
// publishing it: a check a second per service must not be an event a second. It
// reports whether it is the first failure of a streak.
func (r *run) noteProbeLocked(p config.Probe, which **ProbeStatus, st probe.State, res probe.Result) bool {
	ps := ProbeStatus{Kind: p.Kind, Target: p.Target}
	if *which != nil {
		ps = **which
	}
	first := !res.OK && (ps.Checks == 0 || ps.Last.OK)
	ps.State, ps.Last = st, res
	ps.Checks++
	if !res.OK {
		f := res
		ps.LastFailure = &f
	}
	*which = &ps
	return first
}

func (r *run) probeResult(p *config.Probe, alive bool, st probe.State, res probe.Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.info.State != Running || r.info.Service == nil {
		return
	}
	var first bool
	r.serviceLocked(func(svc *ServiceInfo) {
		which := &svc.ReadyProbe
		if alive {
			which = &svc.AliveProbe
		}
		first = r.noteProbeLocked(*p, which, st, res)
	})
	cp := r.info
	r.latest.Store(&cp)
	if first {
		name := "ready"
		if alive {
			name = "alive"
		}
		r.changeLocked(EventProbeFailed, fmt.Sprintf("%s %s %s: %s", name, p.Kind, p.Target, res.Output), nil)
	}
}

func (r *run) onReadyResult(st probe.State, res probe.Result) {
	r.probeResult(r.spec.Ready, false, st, res)
}
func (r *run) onAliveResult(st probe.State, res probe.Result) {
	r.probeResult(r.spec.Alive, true, st, res)
}

// onReadyChange moves the attempt to ready when its probe passes, and to unready
// when, ready, it fails `failure` times in a row. Readiness never ends a run.
func (r *run) onReadyChange(st probe.State, res probe.Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.info.State != Running || r.info.Service == nil {
		return
	}
	switch {
	case st == probe.Passing:
		r.serviceLocked(func(svc *ServiceInfo) { svc.Ready, svc.ReadySince = ReadyOK, r.sup.clock.Now() })
		r.changeLocked(EventReady, res.Output, nil)
		r.persistLightLocked() // corral ls reads it from the record
	case st == probe.Failing && r.info.Service.Ready == ReadyOK:
		r.serviceLocked(func(svc *ServiceInfo) { svc.Ready, svc.ReadySince = ReadyLost, time.Time{} })
		r.changeLocked(EventUnready, res.Output, nil)
		r.persistLightLocked()
	}
}

// onAliveChange ends the attempt whose liveness probe failed its threshold, with
// reason alive-failed, so that another starts (even under restart = "no", at the
// default pacing). A probe alone never ends a run for good: with no restart left in
// its budget, the run is left running and the failure is said (probe-failed).
func (r *run) onAliveChange(st probe.State, res probe.Result) {
	if st != probe.Failing {
		return
	}
	r.mu.Lock()
	left := r.info.State == Running && r.budgetLeftLocked()
	if !left && r.info.State == Running {
		r.changeLocked(EventProbeFailed, "alive failing, but no restart is left in the budget: left running ("+res.Output+")", nil)
	}
	r.mu.Unlock()
	if left {
		r.stop(AliveFailed)
	}
}

// execProbe runs an exec probe's command line with $SHELL -c in the run's directory
// and environment (with its id and secret, so it is the run's to any later reconcile),
// in a process group of its own that ctx's end (its timeout, the attempt's end: the
// monitor's Stop waits for it) kills whole, and in the run's cgroup where it has one. A command that is missing fails the check
// with the shell's words for it; it never ends the run.
func (r *run) execProbe(ctx context.Context, line string) (bool, string) {
	cmd := r.spec.command(r.sup.cfg, r.id)
	env := append(cmd.Env, RunSecretEnv+"="+r.secret)
	pc := exec.CommandContext(ctx, shellIn(env), "-c", line)
	pc.Dir, pc.Env = cmd.Dir, env
	inOwnGroup(pc) // a timeout or the attempt's end kills its whole group, not just the shell
	pc.WaitDelay = time.Second
	var out bytes.Buffer
	pc.Stdout, pc.Stderr = &out, &out
	s := r.sup
	done := r.probeInRunCgroup(pc)
	s.spawnMu.Lock() // a helper of Corral's, not an orphan of a run's to reap
	err := pc.Start()
	done()
	if err == nil {
		s.escapes.helper(pc.Process.Pid, true)
	}
	s.spawnMu.Unlock()
	if err != nil {
		return false, "probe not started: " + err.Error()
	}
	err = pc.Wait()
	s.spawnMu.Lock()
	s.escapes.helper(pc.Process.Pid, false)
	s.spawnMu.Unlock()
	text := strings.TrimSpace(out.String())
	if err != nil {
		if text != "" {
			text += "\n"
		}
		text += err.Error() // "exit status 127" after "sh: pg_isready: not found"
	}
	return err == nil, text
}
