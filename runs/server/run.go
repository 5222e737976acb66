package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"corral/config"
	"corral/runs"
)

// Run is corral server: the state dir's server, in the foreground (systemd, a
// terminal) or, with daemon, as the daemon a client started (StartDaemon has already
// put it in its own session with stdio on /dev/null): it logs only to server.log
// then. It serves until corral shutdown, SIGTERM or SIGINT, and ends every live run
// (supervisor-shutdown) before it returns. SIGHUP is ignored: outliving terminals is
// its job. windowSize is the window-size policy of runs several attached UIs show
// (config.WindowLatest, …; "" takes the config file's [ui] window_size). warn is told
// the registry's warnings on opening.
func Run(stateDir string, daemon bool, windowSize string, warn func(string)) error {
	signal.Ignore(syscall.SIGHUP)
	user, uerr := config.User()
	if uerr != nil {
		warn(fmt.Sprintf("config not read ([notify], [ui] window_size): %v", uerr))
	}
	if windowSize == "" {
		windowSize = user.UI.WindowSize
	}
	// Screens: an attached UI is shown frames rendered here, and agents' states are
	// judged from them.
	opts := append([]runs.Option{runs.WithScreens(), runs.WithWindowSize(windowSize)},
		runs.FollowAgents(user.Notify, warn)...)
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
	logger.Info("server started", "pid", os.Getpid(), "instance_id", reg.Instance(), "socket", ln.Path)
	sup.ReconcileInBackground(func(ds []runs.Decision, err error) {
		if err != nil {
			logger.Warn("reconcile failed", "err", err)
		}
		for _, d := range runs.Notable(ds) {
			logger.Info("reconciled", "run_id", d.ID, "name", d.Name, "decision", d.Decision, "detail", d.Detail)
		}
	})
	srv := New(sup, Options{Instance: reg.Instance(), StateDir: reg.Dir(), Log: logger, Ownership: sup.Ownership().Reason})
	logger.Info("ownership", "backend", sup.Ownership().Reason)
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT) // before Serve: none may kill it unended
	go stopOnSignal(srv, sigs, logger)
	err = srv.Serve(ln)
	ln.Close() // no client may reach a server that is ending its runs
	sup.Shutdown(context.Background())
	logger.Info("server stopped", "err", err)
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
