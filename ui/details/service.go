package details

import (
	"fmt"
	"strings"

	"corral/runs"
	"corral/ui/common"
)

// shownAttempts is how many of a service's last attempts the pane lists.
const shownAttempts = 3

// serviceLines are a service's facts: its policy and where it stands ("on-failure ·
// attempt 3 · 2/5 restarts · restarting in 4s"), its readiness and liveness probes
// with their last results (a failure's output), and its last attempts with how each
// ended; none for a run that is no service.
func (d Details) serviceLines() []string {
	svc, st := d.info.Service, d.c.Styles
	if svc == nil {
		return nil
	}
	s := string(svc.Policy) + fmt.Sprintf(" · attempt %d", svc.Attempt)
	if svc.MaxRestarts > 0 {
		s += fmt.Sprintf(" · %d/%d restarts", svc.Restarts, svc.MaxRestarts)
	} else if svc.Restarts > 0 {
		s += fmt.Sprintf(" · %d restarts", svc.Restarts)
	}
	if now, ok := common.ServiceText(d.info, d.now, &d.cache.Changes); ok {
		s += " · " + common.ServiceStyle(st, d.info).Render(now)
	}
	lines := []string{d.label("service") + s}
	if svc.GaveUp != "" {
		lines = append(lines, d.label("gave up")+st.Danger.Render(common.Clean(svc.GaveUp)))
	}
	if p := svc.ReadyProbe; p != nil {
		lines = append(lines, d.label("ready")+d.probeLine(p))
	}
	if p := svc.AliveProbe; p != nil {
		lines = append(lines, d.label("alive")+d.probeLine(p))
	}
	from := max(len(svc.Attempts)-shownAttempts, 0)
	for _, a := range svc.Attempts[from:] {
		lines = append(lines, d.label(fmt.Sprintf("#%d", a.N))+d.attemptLine(a))
	}
	return lines
}

// probeLine is one probe: "tcp 127.0.0.1:5432 · passing · 12 checks · last failure
// 0:40 ago: connection refused".
func (d Details) probeLine(p *runs.ProbeStatus) string {
	st := d.c.Styles
	state := p.State.String()
	if d.info.State != runs.Running { // between attempts or ended: nothing is probed now
		state = "not probing (last attempt: " + state + ")"
	}
	s := common.Clean(p.Kind+" "+p.Target) + " · " + state + fmt.Sprintf(" · %d checks", p.Checks)
	if f := p.LastFailure; f != nil {
		out := strings.TrimSpace(f.Output)
		if i := strings.LastIndexByte(out, '\n'); i >= 0 { // the shell's last words say most
			out = strings.TrimSpace(out[:i]) + " (" + strings.TrimSpace(out[i+1:]) + ")"
		}
		s += " · " + st.Warn.Render("failed "+common.FmtAge(d.now.Sub(f.At))+" ago: "+common.Clean(out))
	}
	return s
}

// attemptLine is an ended attempt: how it ended, when, for how long it ran.
func (d Details) attemptLine(a runs.Attempt) string {
	st := d.c.Styles
	style := st.Danger
	if a.Reason == runs.Exit && a.ExitCode != nil && *a.ExitCode == 0 || a.Reason == runs.ManualRestart {
		style = st.OK
	}
	s := style.Render(a.End())
	if !a.StartedAt.IsZero() {
		s += " · ran " + common.FmtAge(a.EndedAt.Sub(a.StartedAt))
	}
	s += " · " + common.FmtAge(d.now.Sub(a.EndedAt)) + " ago"
	if a.Detail != "" {
		s += " · " + st.Muted.Render(common.Clean(a.Detail))
	}
	if !a.VerifiedEmpty {
		s += " · " + st.Warn.Render("not verified empty")
	}
	return s
}
