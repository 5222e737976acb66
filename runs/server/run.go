package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"corral/config"
	"corral/runs"
	"corral/runs/cli/listing"
	"corral/runs/keeper"
)

// Run is corral server: the state dir's server, in the foreground (systemd, a
// terminal) or, with daemon, as the daemon a client started (StartDaemon has already
// put it in its own session with stdio on /dev/null): it logs only to server.log
// then. It serves until corral shutdown, SIGTERM or SIGINT, and ends every live run
// (supervisor-shutdown) before it returns. SIGHUP is ignored: outliving terminals is
// its job. windowSize is the window-size policy of runs several attached UIs show
// (config.WindowLatest, …; "" takes the config file's [ui] window_size). warn is told
// the registry's warnings on opening.
func Run(stateDir string, daemon bool, windowSize string, warn func(string)) (err error) {
	signal.Ignore(syscall.SIGHUP)
	user, uerr := config.User()
	if uerr != nil {
		warn(fmt.Sprintf("config not read ([notify], [ui] window_size, [worktree]): %v", uerr))
	}
	if windowSize == "" {
		windowSize = user.UI.WindowSize
	}
	// Screens: an attached UI is shown frames rendered here, and agents' states are
	// judged from them.
	opts := append([]runs.Option{runs.WithScreens(), runs.WithWindowSize(windowSize), runs.WithWorktrees(user.Worktree),
		runs.WithTakeBack()},
		runs.FollowAgents(user.Notify, warn)...)
	// A keeper started this server: every run is handed to it, so the runs outlive the
	// server; those a server before this one left are taken back.
	kc, kerr := keeper.FromEnv()
	if kerr != nil {
		warn(kerr.Error())
	}
	if kc != nil {
		opts = append(opts, runs.WithKeeper(kc))
		// Why this server ends, for the keeper to report when none comes up: a daemon's
		// stderr goes nowhere, and a server that cannot open its state dir logs nothing.
		defer func() {
			if err != nil {
				kc.Fail(err)
			}
		}()
	}
	sup, reg, err := runs.Open(config.Default(), stateDir, warn, opts...)
	if err != nil {
		return err
	}
	defer reg.Close()
	// The server lock comes before anything acts on the registry: of two servers
	// started at once, the one that loses must not reconcile.
	ln, err := Listen(reg.Dir())
	if err != nil {
		return err
	}
	defer ln.Close()
	logger, closeLog := serverLog(reg.Dir(), daemon)
	defer closeLog()
	logger.Info("server started", "pid", os.Getpid(), "instance_id", reg.Instance(), "socket", ln.Path,
		"keeper", kc != nil)
	var handover Handover
	if kc != nil {
		handover = kc
		if err := readopt(sup, kc, logger); err != nil {
			// Half a conversation with the keeper: this server ends, nothing taken, and
			// the keeper starts another (it keeps every run meanwhile).
			sup.Detach()
			return err
		}
	}
	// The runs that ended under a server before this one are listed again, and every
	// run is in the order it was created, before any UI or corral ls --json sees them.
	start := time.Now()
	if n := sup.TakeEnded(); n > 0 {
		logger.Info("ended runs listed again", "runs", n, "took", time.Since(start).Round(time.Microsecond))
	}
	// Then those left without a process (waiting for their dependencies, between two
	// attempts), whose waits must find the ended ones.
	start = time.Now()
	if n := sup.TakeBack(); n > 0 {
		logger.Info("runs without a process taken back", "runs", n, "took", time.Since(start).Round(time.Microsecond))
	}
	sup.ReconcileInBackground(func(ds []runs.Decision, err error) {
		if err != nil {
			logger.Warn("reconcile failed", "err", err)
		}
		for _, d := range runs.Notable(ds) {
			logger.Info("reconciled", "run_id", d.ID, "name", d.Name, "decision", d.Decision, "detail", d.Detail)
		}
	})
	srv := New(sup, Options{Instance: reg.Instance(), StateDir: reg.Dir(), Log: logger, Ownership: sup.Ownership().Reason,
		Keeper: handover, List: func(all bool) (listing.Doc, error) {
			rs, err := listing.HeldUsing(reg, sup.HeldRecords, sup.RecordUsage, all, config.Default().FinishedTTL)
			rs = append(rs, listing.Waiting(sup.WaitingRuns(), rs)...) // one whose record is not written yet
			return listing.Doc{Runs: rs, Metrics: reg.TotalsWith(sup.Metrics())}, err
		}})
	logger.Info("ownership", "backend", sup.Ownership().Reason)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT) // before Serve: none may kill it unended
	go stopOnSignal(srv, sigs, logger)
	err = srv.Serve(ln)
	ln.Close() // no client may reach a server that is ending its runs
	if srv.HandedOver() {
		sup.Detach() // the keeper's next server takes them: nothing ends
		logger.Info("server stopped: runs handed over", "err", err)
		return nil
	}
	sup.Shutdown(context.Background())
	logger.Info("server stopped", "err", err)
	return nil
}

// readopt takes back the runs the keeper kept from a server before this one, before
// anything reconciles (their records are stolen first, so no reconcile takes them for
// a dead owner's).
func readopt(sup *runs.Supervisor, kc *keeper.Client, logger *slog.Logger) error {
	start := time.Now()
	kept, err := kc.Recover()
	if err != nil {
		logger.Error("keeper: recover", "err", err)
		return err
	}
	for _, d := range sup.Readopt(kept) {
		logger.Info("readopted", "run_id", d.ID, "name", d.Name, "pid", d.PID, "decision", d.Decision, "detail", d.Detail)
	}
	logger.Info("readopt done", "runs", len(kept), "took", time.Since(start).Round(time.Microsecond))
	return nil
}

// stopOnSignal stops srv on the first of sigs, until it has stopped otherwise.
func stopOnSignal(srv *Server, sigs <-chan os.Signal, logger *slog.Logger) {
	select {
	case s := <-sigs:
		logger.Info("stopping", "signal", s.String())
		srv.Stop()
	case <-srv.Stopped():
	}
}

// serverLog is the server's log: server.log in the state dir, and stderr too unless
// it runs as a daemon.
func serverLog(dir string, daemon bool) (*slog.Logger, func()) {
	var w io.Writer = io.Discard
	f, err := OpenLog(dir)
	if err == nil {
		w = f
	}
	if !daemon {
		w = io.MultiWriter(w, os.Stderr)
	}
	return slog.New(slog.NewTextHandler(w, nil)), func() {
		if f != nil {
			f.Close()
		}
	}
}
