package server

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"corral/runs/api"
)

// sessionHandler answers an operation about the conversation itself (api.Session).
type sessionHandler func(s *Server, ctx context.Context, args json.RawMessage) (any, error)

// sessions are the operations the server answers itself; every other operation is
// api's, answered by its handler on the server's core.
var sessions = map[string]sessionHandler{}

func bind[A, R any](op *api.Session[A, R], h func(s *Server, ctx context.Context, a A) (R, error)) {
	sessions[op.Name()] = func(s *Server, ctx context.Context, raw json.RawMessage) (any, error) {
		a, err := op.DecodeArgs(raw)
		if err != nil {
			return nil, err
		}
		return h(s, ctx, a)
	}
}

func init() {
	bind(api.Hello, hello)
	bind(api.Watch, watch)
	bind(api.Upgrade, upgrade)
}

// dispatch answers one request by its operation's name.
func (s *Server) dispatch(ctx context.Context, req api.Request) (any, error) {
	if h, ok := sessions[req.Verb]; ok {
		return h(s, ctx, req.Args)
	}
	op, ok := api.Lookup(req.Verb)
	if !ok {
		return nil, api.Errorf(api.CodeUnknown, "unknown verb %q", req.Verb)
	}
	res, err := op.Serve(ctx, s.core, req.Args)
	if err != nil {
		return nil, err
	}
	switch op {
	case api.Operation(api.Spawn):
		s.log.Info("spawned", "run_id", res.(api.SpawnReply).ID)
	case api.Operation(api.Shutdown):
		s.log.Info("shutdown requested", "ended", res.(api.ShutdownReply).Ended)
		s.stopAfterReply.Store(true) // Stop now would close this connection before the reply
	}
	return res, nil
}

func hello(s *Server, _ context.Context, _ api.HelloArgs) (api.HelloReply, error) {
	h := api.HelloReply{Version: api.Version, Binary: api.Binary, PID: os.Getpid(), Instance: s.opt.Instance, StateDir: s.opt.StateDir,
		Ownership: s.opt.Ownership}
	if s.opt.Keeper != nil {
		h.Keeper = os.Getppid() // the keeper starts the server as its child
	}
	return h, nil
}

// upgrade hands the runs over to a server of a.Exe: the keeper is told to start it
// once this one has ended, and this one ends (after its reply) without ending a run.
func upgrade(s *Server, _ context.Context, a api.UpgradeArgs) (api.UpgradeReply, error) {
	pid := os.Getpid()
	if s.opt.Keeper == nil {
		return api.UpgradeReply{}, api.Errorf(api.CodeFailed, "the server (pid %d) was not started by a keeper, "+
			"so its runs cannot outlive it: end them (corral shutdown), then start the new binary", pid)
	}
	if err := executable(a.Exe); err != nil {
		return api.UpgradeReply{}, api.Errorf(api.CodeBadRequest, "upgrade: %v", err)
	}
	if err := s.opt.Keeper.Handover(a.Exe); err != nil {
		return api.UpgradeReply{}, api.Errorf(api.CodeFailed, "upgrade: %v", err)
	}
	live := 0
	for _, i := range s.core.Snapshot() {
		if !i.Ended() {
			live++
		}
	}
	s.log.Info("upgrade requested", "exe", a.Exe, "runs", live)
	s.handedOver.Store(true)
	s.stopAfterReply.Store(true)
	return api.UpgradeReply{PID: pid, Runs: live}, nil
}

// executable checks that path names a regular file someone may execute.
func executable(path string) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%q is not an absolute path", path)
	}
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return err
	case !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0:
		return fmt.Errorf("%s is not an executable file", path)
	}
	return nil
}
