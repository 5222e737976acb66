package server

import (
	"context"
	"encoding/json"
	"os"

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
	return api.HelloReply{Version: api.Version, Binary: api.Binary, PID: os.Getpid(), Instance: s.opt.Instance, StateDir: s.opt.StateDir,
		Ownership: s.opt.Ownership}, nil
}
