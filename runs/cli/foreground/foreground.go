// Package foreground is corral run: one run spawned with Corral's own terminal
// wired to it (raw mode and size for a PTY run, stdin forwarded, output streamed
// through the host filter), waited for while Corral's signals become its stop, and
// reported (the summary line, or the JSON report). How it ended is returned for
// main to map to an exit code.
package foreground

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"corral/runs"
	"corral/runs/cli/foreground/hostterm"
)

// Result is how a foreground run ended.
type Result struct {
	Info     runs.Info
	SpawnErr error     // the spawn's error, when the run ended with spawn-error
	Got      os.Signal // the first signal Corral received while the run was live, or nil
	// PipeClosed: Corral's stdout lost its reader (| head), which ended the run.
	PipeClosed bool
}

// Run spawns the run, wires the terminal to it, waits, and reports: the JSON report
// to stdout with asJSON, else the run's output; the summary line to stderr. The
// error is the spawn's when the run could not be started at all.
func Run(sup *runs.Supervisor, spec runs.Spec, asJSON bool) (Result, error) {
	// A signal is caught before the spawn so none is lost between the two.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	// Writing to a closed stdout must be an error, not a SIGPIPE death that would
	// leave the run behind.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)

	tty := hostterm.New(spec.PTY && !asJSON)
	defer tty.Restore()
	stdout := hostterm.NewPipeEnd(hostterm.Stdout())
	if !asJSON {
		spec.Stdout, spec.Stderr = stdout, os.Stderr
	}
	if spec.PTY {
		spec.Cols, spec.Rows = tty.Size()
	}
	id, spawnErr := sup.Spawn(spec)
	if id == "" {
		return Result{}, spawnErr
	}
	go hostterm.ForwardStdin(os.Stdin, input{sup, id}, spec.PTY, tty.Raw())
	stopResize := tty.FollowSize(func(c, r uint16) { sup.Resize(id, c, r) })
	defer stopResize()

	got := waitOrStop(sup, id, sigs)
	info, _ := sup.Wait(context.Background(), id)
	sup.Shutdown(context.Background()) // persists the final counters
	tty.Restore()
	report(sup, id, info, asJSON)
	return Result{Info: info, SpawnErr: spawnErr, Got: got, PipeClosed: stdout.Closed()}, nil
}

// report writes the JSON report (asJSON) and the summary line of the ended run.
func report(sup *runs.Supervisor, id string, info runs.Info, asJSON bool) {
	tail, _ := sup.Tail(id)
	if asJSON {
		escapees, _ := sup.Escapees(id)
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(runs.NewReport(info, escapees, tail))
	}
	fmt.Fprintf(os.Stderr, "corral: %s\n", runs.Summary(info))
	if w := runs.RecordWarning(info); w != "" {
		fmt.Fprintf(os.Stderr, "corral: %s\n", w)
	}
}

// waitOrStop waits for the run to end, turning the first signal Corral receives into
// a stop: SIGINT is the operator cancelling, SIGTERM/SIGHUP/SIGQUIT are Corral being
// told to stop. A later signal cuts the grace short (SIGKILL now); none kills Corral
// while the run is being cleaned up. It returns the first signal, or nil.
func waitOrStop(sup *runs.Supervisor, id string, sigs <-chan os.Signal) os.Signal {
	done := make(chan struct{})
	go func() {
		sup.Wait(context.Background(), id)
		close(done)
	}()
	stop := func(s os.Signal) {
		reason := runs.SupervisorShutdown
		if s == syscall.SIGINT {
			reason = runs.ManualCancel
		}
		sup.Stop(id, reason)
	}
	return hostterm.WatchSignals(done, sigs, stop, sup.Hurry)
}

// input is the run as hostterm.ForwardStdin writes to it.
type input struct {
	sup *runs.Supervisor
	id  string
}

func (in input) Write(b []byte) error { return in.sup.Write(in.id, b) }
func (in input) CloseStdin() error    { return in.sup.CloseStdin(in.id) }
func (in input) Cancel()              { in.sup.Stop(in.id, runs.ManualCancel) }
