// Package probe checks whether a service is up: readiness and liveness probes of
// four kinds (an http GET answered 2xx, a tcp connect, a command exiting 0, a line of
// the run's output matching a regular expression), run by a Monitor on a timer and
// judged with success and failure thresholds. Idle, a monitor is one armed timer: no
// goroutine waits between checks. It knows nothing of runs; the exec kind's process
// is started by a function its owner gives (the run, whose process it is).
package probe

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"sync"
	"time"

	"corral/config"
	"corral/watchdog"
)

// State is what a monitor's checks say so far.
type State int

const (
	Pending State = iota // not yet passed Success checks in a row
	Passing              // passed Success checks in a row, not failed Failure since
	Failing              // was passing (or never passed) and failed Failure checks in a row
)

var stateNames = [...]string{"pending", "passing", "failing"}

func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("probe-state(%d)", int(s))
}

// MarshalText writes the state's name.
func (s State) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a state's name.
func (s *State) UnmarshalText(b []byte) error {
	for i, n := range stateNames {
		if n == string(b) {
			*s = State(i)
			return nil
		}
	}
	return fmt.Errorf("unknown probe state %q", b)
}

// Result is one check's outcome: passed or not, and what it said (the first bytes of
// an exec probe's output, an http status, a dial error).
type Result struct {
	OK     bool      `json:"ok"`
	Output string    `json:"output,omitempty"`
	At     time.Time `json:"checked_at"`
}

// Check runs one check, bounded by ctx.
type Check func(ctx context.Context) Result

// Exec runs a command line as the probe's owner wants it run (in its run's
// environment and ownership) and reports whether it exited 0, with its output.
type Exec func(ctx context.Context, line string) (ok bool, output string)

// maxOutput bounds what a result keeps of a check's output.
const maxOutput = 512

// CheckFor is the check of spec p; exec runs the exec kind's command, and log is the
// matcher of the log kind (nil for other kinds).
func CheckFor(p config.Probe, exec Exec, log *LogMatcher) Check {
	switch p.Kind {
	case config.ProbeHTTP:
		return httpCheck(p.Target)
	case config.ProbeTCP:
		return tcpCheck(p.Target)
	case config.ProbeExec:
		return func(ctx context.Context) Result {
			ok, out := exec(ctx, p.Target)
			return Result{OK: ok, Output: clip(out)}
		}
	case config.ProbeLog:
		return func(context.Context) Result {
			if line, ok := log.Matched(); ok {
				return Result{OK: true, Output: clip(line)}
			}
			return Result{Output: fmt.Sprintf("no line of output matches %q yet", p.Target)}
		}
	}
	return func(context.Context) Result { return Result{Output: "unknown probe kind " + p.Kind} }
}

// client is the http probes' client: no keep-alive, so an idle service holds no
// connection of Corral's between checks, and redirects are not followed (a 3xx is a
// failure, as a 2xx is asked for).
var client = &http.Client{
	Transport: &http.Transport{DisableKeepAlives: true, Proxy: nil},
	CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	},
}

func httpCheck(url string) Check {
	return func(ctx context.Context) Result {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return Result{Output: clip(err.Error())}
		}
		resp, err := client.Do(req)
		if err != nil {
			return Result{Output: clip(err.Error())}
		}
		resp.Body.Close()
		return Result{OK: resp.StatusCode >= 200 && resp.StatusCode < 300, Output: "HTTP " + resp.Status}
	}
}

func tcpCheck(addr string) Check {
	return func(ctx context.Context) Result {
		if ok, err := dialIP(ctx, addr); ok {
			if err != nil {
				return Result{Output: clip(err.Error())}
			}
			return Result{OK: true, Output: "connected to " + addr}
		}
		var d net.Dialer
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return Result{Output: clip(err.Error())}
		}
		c.Close()
		return Result{OK: true, Output: "connected to " + addr}
	}
}

func clip(s string) string {
	if len(s) > maxOutput {
		return s[:maxOutput] + "…"
	}
	return s
}

// LogMatcher finds the first line of a run's output that matches a regular
// expression, a line being complete at its newline (its CR dropped). Feed is called
// with every chunk of output as it is read; it keeps only the line being written, so
// it costs nothing once matched.
type LogMatcher struct {
	re      *regexp.Regexp
	onMatch func()

	mu      sync.Mutex
	partial []byte
	matched string
	done    bool
}

// maxLine bounds the unfinished line a LogMatcher keeps.
const maxLine = 4096

// NewLogMatcher matches expr (checked by config.CheckProbe); onMatch is called once,
// outside the matcher's lock, at the first match.
func NewLogMatcher(expr string, onMatch func()) (*LogMatcher, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	return &LogMatcher{re: re, onMatch: onMatch}, nil
}

// Feed looks at a chunk of output.
func (m *LogMatcher) Feed(b []byte) {
	m.mu.Lock()
	if m.done {
		m.mu.Unlock()
		return
	}
	hit := false
	for len(b) > 0 && !hit {
		i := indexNL(b)
		if i < 0 {
			// Kept until its newline: matched whole only, or "^listening on [0-9]+$"
			// would pass at "listening on 80" of a port 8080 read in two pieces.
			m.partial = append(m.partial, b...)
			if len(m.partial) > maxLine {
				m.partial = m.partial[len(m.partial)-maxLine:]
			}
			break
		}
		m.partial = append(m.partial, b[:i]...)
		hit = m.re.Match(trimCR(m.partial))
		if !hit {
			m.partial = m.partial[:0]
		}
		b = b[i+1:]
	}
	if hit {
		m.done, m.matched, m.partial = true, string(trimCR(m.partial)), nil
	}
	m.mu.Unlock()
	if hit && m.onMatch != nil {
		m.onMatch()
	}
}

// Matched is the line that matched, once one has.
func (m *LogMatcher) Matched() (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.matched, m.done
}

func indexNL(b []byte) int {
	for i, c := range b {
		if c == '\n' {
			return i
		}
	}
	return -1
}

func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

// Monitor runs a probe's check every period after an initial delay, one check at a
// time, and calls onChange when the state it judges changes and onResult after every
// check. Between checks it is one armed timer of its clock.
type Monitor struct {
	spec     config.Probe
	check    Check
	clock    watchdog.Clock
	onResult func(State, Result)
	onChange func(State, Result)

	mu       sync.Mutex
	state    State
	ok, fail int // checks passed (failed) in a row
	timer    watchdog.Timer
	stopped  bool
	running  bool // a check is in flight
	again    bool // Poke during a check: check again when it is done
	cancel   context.CancelFunc
	wg       sync.WaitGroup
}

// NewMonitor returns a monitor of spec p (defaults filled) that checks with check.
// onResult is called after every check and onChange after a check that changed the
// state, each with the state after it; neither is called under the monitor's lock.
func NewMonitor(p config.Probe, check Check, clock watchdog.Clock, onResult, onChange func(State, Result)) *Monitor {
	return &Monitor{spec: config.ProbeDefaults(p), check: check, clock: clock, onResult: onResult, onChange: onChange}
}

// Start arms the first check, after the initial delay.
func (m *Monitor) Start() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.stopped {
		m.timer = m.clock.AfterFunc(m.spec.InitialDelay, m.tick)
	}
}

// Poke checks now (a log probe's line has come), unless a check is in flight, in
// which case another follows it.
func (m *Monitor) Poke() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.stopped {
		return
	}
	if m.running {
		m.again = true
		return
	}
	if m.timer != nil {
		m.timer.Stop()
	}
	m.timer = m.clock.AfterFunc(0, m.tick)
}

// Stop stops the checks and waits for one in flight, which is cancelled: an exec
// probe's process is gone when Stop returns.
func (m *Monitor) Stop() {
	m.mu.Lock()
	m.stopped = true
	if m.timer != nil {
		m.timer.Stop()
	}
	if m.cancel != nil {
		m.cancel()
	}
	m.mu.Unlock()
	m.wg.Wait()
}

// State is the state judged so far.
func (m *Monitor) State() State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state
}

func (m *Monitor) tick() {
	m.mu.Lock()
	if m.stopped || m.running {
		m.mu.Unlock()
		return
	}
	ctx := &checkCtx{deadline: time.Now().Add(m.spec.Timeout)}
	m.running, m.cancel = true, ctx.cancel
	m.wg.Add(1)
	m.mu.Unlock()
	check := func() {
		defer m.wg.Done()
		res := m.check(ctx)
		if !res.OK && ctx.Err() == context.DeadlineExceeded && res.Output == "" {
			res.Output = fmt.Sprintf("no answer within %s", m.spec.Timeout)
		}
		ctx.cancel()
		m.judge(res)
	}
	if m.clock == watchdog.RealClock() {
		// time.AfterFunc calls tick on a goroutine of its own already: the check is
		// made there, not on another one started for it (fifty services' checks at
		// once were a hundred goroutines a second, each waking a thread).
		check()
		return
	}
	// A fake clock's Advance calls tick itself, and never waits on the network or a
	// command: the check has a goroutine of its own.
	go check()
}

// checkCtx is a check's context: its deadline, and a timer ending it at the deadline
// that is armed only if something waits on Done (an exec probe's process, an http
// request). A tcp check only reads the deadline, so a check a second per service
// arms no timer (each one a wakeup of the scheduler when set and when stopped).
type checkCtx struct {
	deadline time.Time

	mu    sync.Mutex
	done  chan struct{} // made by the first Done
	err   error
	timer *time.Timer
}

func (c *checkCtx) Deadline() (time.Time, bool) { return c.deadline, true }
func (c *checkCtx) Value(any) any               { return nil }

func (c *checkCtx) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = make(chan struct{})
		switch d := time.Until(c.deadline); {
		case c.err != nil:
			close(c.done)
		case d <= 0:
			c.err = context.DeadlineExceeded
			close(c.done)
		default:
			c.timer = time.AfterFunc(d, func() { c.end(context.DeadlineExceeded) })
		}
	}
	return c.done
}

func (c *checkCtx) Err() error {
	c.mu.Lock()
	over := c.err == nil && !time.Now().Before(c.deadline)
	c.mu.Unlock()
	if over {
		c.end(context.DeadlineExceeded)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// end ends the check's context with err, once.
func (c *checkCtx) end(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return
	}
	c.err = err
	if c.done != nil {
		close(c.done)
	}
	if c.timer != nil {
		c.timer.Stop()
	}
}

func (c *checkCtx) cancel() { c.end(context.Canceled) }

// judge counts res and arms the next check.
func (m *Monitor) judge(res Result) {
	m.mu.Lock()
	res.At = m.clock.Now()
	if res.OK {
		m.ok, m.fail = m.ok+1, 0
	} else {
		m.ok, m.fail = 0, m.fail+1
	}
	old := m.state
	switch {
	case res.OK && m.ok >= m.spec.Success:
		m.state = Passing
	case !res.OK && m.fail >= m.spec.Failure:
		m.state = Failing
	}
	stopped := m.stopped
	st := m.state
	m.mu.Unlock()
	// Told before the next check is armed, so reports of two checks never cross.
	if !stopped && m.onResult != nil {
		m.onResult(st, res)
	}
	if !stopped && st != old && m.onChange != nil {
		m.onChange(st, res)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.running, m.cancel = false, nil
	if m.stopped {
		return
	}
	next := aligned(m.clock.Now(), m.spec.Period)
	if m.again {
		next, m.again = 0, false
	}
	m.timer = m.clock.AfterFunc(next, m.tick)
}

// aligned is the wait until the next check: the next multiple of period on the
// clock, at least half a period away. Services with the same period are then checked
// in one burst, not each at its own moment: fifty probes a second woke the process
// fifty times a second, which cost it more than the checks themselves.
func aligned(now time.Time, period time.Duration) time.Duration {
	d := period - time.Duration(now.UnixNano()%int64(period))
	if d < period/2 {
		d += period
	}
	return d
}
