package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"corral/config"
	"corral/runs"
	"corral/runs/agentstate/agenttest"
)

const cols, rows = 120, 40

// record makes one recording: the model server, the agent's home, a Corral PTY run
// with screens (the environment any Corral run gets), the driver, and the files.
func record(v variant, out, root string, logf func(string, ...any)) error {
	a, _ := agenttest.Lookup(v.agent)
	srv, err := agenttest.Start()
	if err != nil {
		return err
	}
	defer srv.Close()
	l, err := a.Prepare(root, srv.URL)
	if err != nil {
		return err
	}
	rec := newRecording(v, a, l)
	sup, err := runs.New(runs.WithScreens(), runs.WithLogDir(filepath.Join(root, "logs")),
		runs.WithEscapeDetection())
	if err != nil {
		return err
	}
	defer shutdown(sup, logf)
	c := newCapture(cols, rows)
	id, err := sup.Spawn(runs.Spec{Name: v.name, Argv: l.Argv, PTY: true, Cols: cols, Rows: rows,
		Dir: l.Dir, BaseEnv: l.Env, Stdout: c})
	if err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { sup.Wait(context.Background(), id); close(exited) }()
	logf("spawned %s (%s) as %s, model server %s", a.Name, rec.Version, id, srv.URL)
	d := &driver{sup: sup, id: id, srv: srv, cap: c, m: agentMarks[a.Name], exited: exited,
		rec: rec, logf: logf}
	err = d.startup()
	if err == nil {
		err = v.flow(d)
	}
	sup.Cancel(id) // an agent that failed or would not quit
	<-exited
	if err != nil {
		c.writeCast(filepath.Join(root, "failed.cast"), castHeader(rec, c))
		return fmt.Errorf("%w (partial cast in %s)", err, filepath.Join(root, "failed.cast"))
	}
	return finish(rec, v, c, srv, out)
}

// finish completes the recording, checks it and writes its two files.
func finish(rec *agenttest.Recording, v variant, c *capture, srv *agenttest.Server, out string) error {
	rec.Bytes = len(c.stream())
	for _, r := range srv.Refused() {
		rec.Notes = append(rec.Notes, "refused through the proxy: "+r)
	}
	rec.Duration = c.since(time.Now())
	for _, e := range srv.Events() {
		rec.Server = append(rec.Server, agenttest.ServerMark{Kind: e.Kind,
			At: c.offsetAt(e.At), T: c.since(e.At)})
	}
	if err := agenttest.Check(*rec, agenttest.RequiredPhases(v.name)); err != nil {
		return err
	}
	if err := c.writeCast(filepath.Join(out, v.name+".cast"), castHeader(rec, c)); err != nil {
		return err
	}
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, v.name+".phases.json"), append(b, '\n'), 0o644)
}

func newRecording(v variant, a agenttest.Agent, l agenttest.Launch) *agenttest.Recording {
	d := config.Default()
	env := map[string]string{"TERM": d.Term, "COLORTERM": "truecolor", "TERM_PROGRAM": "corral"}
	for k, val := range l.Settings {
		if !strings.Contains(k, ".") { // a variable, not a file
			env[k] = val
		}
	}
	rec := &agenttest.Recording{Name: v.name, Agent: a.Name, Package: a.Package,
		Version: cliVersion(l), Cols: cols, Rows: rows, Env: env, Settings: l.Settings}
	if !strings.Contains(rec.Version, a.Version) {
		rec.Notes = append(rec.Notes, fmt.Sprintf("recorded with %s, not the pinned %s@%s",
			rec.Version, a.Package, a.Version))
	}
	return rec
}

func castHeader(rec *agenttest.Recording, c *capture) agenttest.CastHeader {
	return agenttest.CastHeader{Version: 2, Width: cols, Height: rows, Timestamp: c.start.Unix(),
		Title: rec.Name + " " + rec.Version,
		Env:   map[string]string{"TERM": rec.Env["TERM"], "SHELL": "/bin/bash"}}
}

// cliVersion is what the CLI says with --version, in its offline environment.
func cliVersion(l agenttest.Launch) string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, l.Argv[0], "--version")
	cmd.Env, cmd.Dir = l.Env, l.Dir
	b, err := cmd.Output()
	if err != nil {
		return "unknown (" + err.Error() + ")"
	}
	return strings.TrimSpace(string(b))
}

// shutdown ends every run and waits until each is verified empty (codex's app-server
// daemon included: it is the run's escapee, ended with it).
func shutdown(sup *runs.Supervisor, logf func(string, ...any)) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := sup.Shutdown(ctx); err != nil {
		logf("shutdown: %v", err)
	}
}
