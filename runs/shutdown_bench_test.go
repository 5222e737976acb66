//go:build linux

package runs

import (
	"context"
	"os"
	"path/filepath"
	"runtime/pprof"
	"runtime/trace"
	"strconv"
	"syscall"
	"testing"
	"time"

	"corral/config"
)

// processCPU is the CPU time this process has used (user and system, every thread):
// what a benchmark's wall time on a loaded machine does not tell.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchRuns is how many runs the scale benchmarks start (CORRAL_BENCH_RUNS, else 1000).
func benchRuns() int {
	if n, err := strconv.Atoi(os.Getenv("CORRAL_BENCH_RUNS")); err == nil && n > 0 {
		return n
	}
	return 1000
}

// BenchmarkShutdownThousand is Shutdown of a supervisor as a server opens it (escape
// detection, cgroups where they can be made) with CORRAL_BENCH_RUNS (1000) idle PTY
// runs of `sh -c 'sleep 100000'`, programs that end on SIGTERM: shutdown-ms from the
// call to every run ended and verified, shutdown-cpu-ms the CPU it took (on a loaded
// machine the wall time is mostly waiting for a core). Run it once (-benchtime 1x).
// CORRAL_BENCH_BACKEND=session measures the session backend (no cgroups).
func BenchmarkShutdownThousand(b *testing.B) {
	n := benchRuns()
	backend := WithCgroups(FindCgroups(config.Default().CgroupRoot))
	if os.Getenv("CORRAL_BENCH_BACKEND") == "session" {
		backend = sessions()
	}
	for b.Loop() {
		dir := b.TempDir()
		d := config.Default()
		reg, err := OpenRegistry(filepath.Join(dir, "state"), d)
		if err != nil {
			b.Fatal(err)
		}
		s, err := New(WithDefaults(d), WithRegistry(reg), WithEscapeDetection(), backend,
			WithLogDir(filepath.Join(dir, "logs")))
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		for range n {
			if _, err := s.Spawn(Spec{Argv: []string{"sh", "-c", "sleep 100000"}, PTY: true, Cols: 80, Rows: 24}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(n), "spawn-ms/run")
		stopProfile := profileShutdown(b)
		start = time.Now()
		cpu := processCPU()
		if err := s.Shutdown(context.Background()); err != nil {
			b.Fatal(err)
		}
		stopProfile()
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "shutdown-ms")
		b.ReportMetric(float64((processCPU() - cpu).Milliseconds()), "shutdown-cpu-ms")
		for _, i := range s.Snapshot() {
			if i.State != Exited || !i.Cleanup.VerifiedEmpty {
				b.Fatalf("run %s: %s, verified empty %v", i.ID, i.State, i.Cleanup.VerifiedEmpty)
			}
		}
		reg.Close()
	}
}

// profileShutdown starts what CORRAL_BENCH_CPUPROFILE and CORRAL_BENCH_TRACE ask for
// (a CPU profile, an execution trace, each to the file named), of the shutdown alone
// (-test.cpuprofile would profile the thousand spawns too); the func returned stops them.
func profileShutdown(b *testing.B) func() {
	var stops []func()
	if name := os.Getenv("CORRAL_BENCH_CPUPROFILE"); name != "" {
		f, err := os.Create(name)
		if err != nil {
			b.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			b.Fatal(err)
		}
		stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
	}
	if name := os.Getenv("CORRAL_BENCH_TRACE"); name != "" {
		f, err := os.Create(name)
		if err != nil {
			b.Fatal(err)
		}
		if err := trace.Start(f); err != nil {
			b.Fatal(err)
		}
		stops = append(stops, func() { trace.Stop(); f.Close() })
	}
	return func() {
		for _, stop := range stops {
			stop()
		}
	}
}
