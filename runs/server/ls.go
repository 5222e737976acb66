package server

import (
	"bytes"
	"context"
	"encoding/json"

	"corral/runs/api"
	"corral/runs/cli/listing"
)

func init() { bind(api.Ls, ls) }

// ls is corral ls from what the server holds (Options.List): the listing rendered
// here, as the client prints it. With Raw the output as printed follows the reply's
// line, so the client neither decodes nor indents it: at a thousand runs that was
// most of its time (five scans of 1.1 MB of JSON).
func ls(s *Server, _ context.Context, a api.LsArgs) (api.LsReply, error) {
	if s.opt.List == nil {
		return api.LsReply{}, api.Errorf(api.CodeUnknown, "this server holds no registry to list")
	}
	doc, err := s.opt.List(a.All)
	if err != nil {
		return api.LsReply{}, api.Errorf(api.CodeFailed, "ls: %v", err)
	}
	if a.Raw {
		var out []byte
		if a.Table {
			var b bytes.Buffer
			err = listing.WriteTable(&b, doc.Runs)
			out = b.Bytes()
		} else {
			out, err = s.lsJSON.Document(doc.Runs, doc.Metrics)
		}
		if err == nil && len(out) > api.MaxBody {
			return api.LsReply{}, api.Errorf(api.CodeTooLarge, "ls: the listing is %d bytes, over a reply's %d", len(out), api.MaxBody)
		}
		return api.LsReply{Printed: out}, err
	}
	if a.Table {
		var b bytes.Buffer
		err = listing.WriteTable(&b, doc.Runs)
		return api.LsReply{Table: b.String()}, err
	}
	b, err := json.Marshal(doc)
	if err == nil && len(b) > api.MaxMessage-4096 {
		// Over what a reply may carry: the client lists the files itself.
		return api.LsReply{}, api.Errorf(api.CodeTooLarge, "ls: the listing is %d bytes, over a reply's %d", len(b), api.MaxMessage)
	}
	return api.LsReply{Doc: b}, err
}
