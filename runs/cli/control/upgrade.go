package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"corral/runs/api"
	"corral/runs/client"
)

// upgradeLimit bounds how long corral server --upgrade waits for the new server.
const upgradeLimit = 30 * time.Second

// Upgrade is corral server --upgrade: the state dir's server hands its
// runs to a server of this binary through its keeper (ARCHITECTURE.md, "Runs that
// outlive their server (the keeper)"), and no run ends. It waits for
// the new server to answer with every run taken back. With no server running there is
// nothing to hand over: it starts one.
func Upgrade(stateDir string, env Env) int {
	const name = "server --upgrade"
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral %s: %v\n", name, err)
		return ExitFailure
	}
	dir, err := env.StateDir(stateDir)
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral %s: %v\n", name, err)
		return ExitFailure
	}
	rep, err := askUpgrade(dir, exe)
	if errors.Is(err, client.ErrNoServer) {
		c, err := client.Connect(dir, func() error { return env.Start(dir) }, startLimit)
		if err == nil {
			fmt.Fprintf(env.Stderr, "corral: no server was running; started one (pid %d)\n", c.Hello.PID)
			c.Close()
			return ExitOK
		}
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral %s: %v\n", name, err)
		return ExitFailure
	}
	next, err := newServer(dir, rep.PID)
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral %s: the server (pid %d) handed over, but %v\n", name, rep.PID, err)
		return ExitFailure
	}
	defer next.Close()
	if running, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", next.Hello.PID)); err == nil && running != exe {
		fmt.Fprintf(env.Stderr, "corral %s: %s did not stay up as the server (it ended, or did not answer in time): the keeper went back to %s (pid %d); "+
			"every run is still there (see keeper.log and server.log in %s)\n", name, exe, running, next.Hello.PID, dir)
		return ExitFailure
	}
	kept := 0
	if l, err := api.List.Call(context.Background(), next, struct{}{}); err == nil {
		for _, i := range l.Runs {
			if !i.Ended() {
				kept++
			}
		}
	}
	fmt.Fprintf(env.Stderr, "corral: server upgraded: pid %d → %d (%s); %d live run(s) handed over, %d live now\n",
		rep.PID, next.Hello.PID, exe, rep.Runs, kept)
	return ExitOK
}

// askUpgrade asks the state dir's server to hand its runs to exe. It says no hello:
// the server may speak another protocol (that is often why it is upgraded), and it
// answers upgrade whatever the version of the request.
func askUpgrade(dir, exe string) (api.UpgradeReply, error) {
	var rep api.UpgradeReply
	conn, err := client.DialSocket(dir)
	if err != nil {
		return rep, err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(api.DefaultBudget))
	args, _ := json.Marshal(api.UpgradeArgs{Exe: exe})
	if err := json.NewEncoder(conn).Encode(api.Request{V: api.Version, Verb: api.Upgrade.Name(), Args: args}); err != nil {
		return rep, err
	}
	var resp api.Response
	if err := json.NewDecoder(conn).Decode(&resp); err != nil {
		return rep, fmt.Errorf("the server did not answer: %w", err)
	}
	switch {
	case resp.Error != nil && resp.Error.Code == api.CodeUnknown:
		return rep, errors.New("the server predates corral server --upgrade: its runs cannot be handed over (corral shutdown ends them)")
	case resp.Error != nil:
		return rep, resp.Error
	}
	return rep, json.Unmarshal(resp.Result, &rep)
}

// newServer waits for a server other than pid old to answer in dir.
func newServer(dir string, old int) (*client.Client, error) {
	deadline := time.Now().Add(upgradeLimit)
	for delay := 5 * time.Millisecond; ; delay = min(2*delay, 100*time.Millisecond) {
		c, err := client.Dial(dir)
		if err == nil && c.Hello.PID != old {
			return c, nil
		}
		if c != nil {
			c.Close()
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no new server answered within %s (see keeper.log and server.log in %s)", upgradeLimit, dir)
		}
		// The keeper starts the next server once the old one has exited; nothing tells
		// a client when it listens but the socket itself.
		time.Sleep(delay)
	}
}
