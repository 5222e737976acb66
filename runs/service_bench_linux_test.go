package runs

import (
	"net"
	"os"
	"testing"
	"time"

	"corral/config"
	"corral/demo/testkit/eventually"
)

func init() { roles["tcp-listen"] = roleTCPListen }

// roleTCPListen is a service: it listens on the 127.0.0.1 address in
// CORRAL_TEST_ADDR and accepts and closes connections until it is ended.
func roleTCPListen(string) error {
	l, err := net.Listen("tcp", os.Getenv("CORRAL_TEST_ADDR"))
	if err != nil {
		return err
	}
	for {
		c, err := l.Accept()
		if err != nil {
			return err
		}
		c.Close()
	}
}

// BenchmarkIdleServicesTCPProbe: fifty idle services, each a real listener on
// 127.0.0.1 (a process of its own) probed by tcp every second; the supervisor's CPU
// over a ten-second window once all are ready, as a share of one core (cpu%).
// BenchmarkIdleServicesBaseline is the same fifty runs without probes.
func BenchmarkIdleServicesTCPProbe(b *testing.B) { benchIdleServices(b, true) }

func BenchmarkIdleServicesBaseline(b *testing.B) { benchIdleServices(b, false) }

func benchIdleServices(b *testing.B, probed bool) {
	const services, window = 50, 10 * time.Second
	s := benchSup(b, testDefaults(), WithLogDir(b.TempDir()))
	exe, _ := os.Executable()
	ids := make([]string, 0, services)
	for range services {
		addr := freeAddr(b)
		spec := Spec{Argv: []string{exe}, Env: []string{roleEnv + "=tcp-listen", "CORRAL_TEST_ADDR=" + addr, "GORACE=atexit_sleep_ms=0"}}
		if probed {
			spec.Ready = &config.Probe{Kind: config.ProbeTCP, Target: addr, Period: time.Second}
		}
		id, err := s.Spawn(spec)
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, id)
	}
	for _, id := range ids {
		eventually.True(b, 30*time.Second, "a service running (ready, when probed)", func() bool {
			r, _ := s.get(id)
			i := r.snapshot()
			return i.State == Running && (!probed || r.isReady())
		})
	}
	b.ResetTimer()
	for range b.N {
		c0, t0 := cpuTime(), time.Now()
		time.Sleep(window) // measuring idle: there is nothing to wait for but time
		b.ReportMetric(100*float64(cpuTime()-c0)/float64(time.Since(t0)), "cpu%")
	}
	b.StopTimer()
	for _, id := range ids {
		if i, _ := s.Info(id); probed && i.Service.ReadyProbe.Checks < int(window/time.Second)-1 {
			b.Fatalf("%s: %d checks: the probes did not run", id, i.Service.ReadyProbe.Checks)
		}
	}
}

// BenchmarkRestartLatency: a crash loop under on-failure with backoff 0; per
// restart, from the restart decision (the crashed attempt's tree verified empty) to
// the next attempt running (restart→running, which includes the fork and exec), from
// the crash seen (the root's exit, the run exiting) to the next attempt running
// (crash→running: the cleanup verified empty too), and the whole cycle from one attempt running to the next (cycle, which includes the
// child's own run to its crash: a Go binary starting).
func BenchmarkRestartLatency(b *testing.B) {
	for _, be := range backends() {
		b.Run(be.name, func(b *testing.B) {
			s := benchSup(b, testDefaults(), be.opt)
			spec := childSpec(false, "exit", "1")
			spec.Restart = &RestartSpec{Policy: RestartOnFailure} // backoff 0, no limit
			_, sub := s.Subscribe()
			defer sub.Close()
			id, err := s.Spawn(spec)
			if err != nil {
				b.Fatal(err)
			}
			var restartAt, lastRunning, exitAt time.Time
			var toRunning, cycle, crash time.Duration
			n := 0
			b.ResetTimer()
			for n < b.N {
				e := <-sub.C
				if e.Run.ID != id {
					continue
				}
				switch {
				case e.Type == EventRestart:
					restartAt = e.Time
				case e.Type == EventState && e.Run.State == Exiting:
					exitAt = e.Time
				case e.Type == EventState && e.Run.State == Running:
					if !restartAt.IsZero() {
						toRunning += e.Time.Sub(restartAt)
						crash += e.Time.Sub(exitAt)
						cycle += e.Time.Sub(lastRunning)
						n++
					}
					lastRunning = e.Time
				}
			}
			b.StopTimer()
			s.Cancel(id)
			b.ReportMetric(float64(toRunning.Microseconds())/float64(n)/1000, "restart→running-ms")
			b.ReportMetric(float64(crash.Microseconds())/float64(n)/1000, "crash→running-ms")
			b.ReportMetric(float64(cycle.Microseconds())/float64(n)/1000, "cycle-ms")
		})
	}
}
