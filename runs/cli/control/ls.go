package control

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"corral/runs/api"
	"corral/runs/cli/listing"
	"corral/runs/client"
)

// ListHosts is corral ls across hosts (DESIGN §19): this machine's runs from local
// (its registry), every other host's from `corral ls --json --host local` run there
// over ssh, all hosts at once so one that does not answer holds up none of the
// others, each within timeout (0: client.OutputLimit), so one that never answers
// holds up nothing for longer. A host that could not be listed has its Err.
func ListHosts(hosts []client.Host, all bool, timeout time.Duration, local func() (listing.Doc, error)) []listing.HostDoc {
	out := make([]listing.HostDoc, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		out[i].Host = h.Name
		if !h.Remote() {
			out[i].Doc, out[i].Err = local()
			continue
		}
		wg.Go(func() { out[i].Doc, out[i].Err = listRemote(h, all, timeout) })
	}
	wg.Wait()
	return out
}

// listRemote runs corral ls --json on h; --host local there lists that machine's
// registry alone, whatever hosts its own config names.
func listRemote(h client.Host, all bool, timeout time.Duration) (listing.Doc, error) {
	args := []string{api.Ls.Name(), "--json", "--host", client.LocalHost}
	if all {
		args = append(args, "--all")
	}
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = client.WithLimit(ctx, timeout)
		defer cancel()
	}
	out, err := h.OutputContext(ctx, args...)
	var doc listing.Doc
	if err == nil {
		if err = json.Unmarshal(out, &doc); err != nil {
			err = fmt.Errorf("host %s: corral ls --json there printed no listing (it began %s): %w", h.Name, client.Excerpt(out), err)
		}
	}
	return doc, err
}
