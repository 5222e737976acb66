package control

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"corral/config"
	"corral/runs"
	"corral/runs/api"
	"corral/runs/cli/listing"
	"corral/runs/client"
	"corral/runs/keeper"
)

// ListHosts is corral ls across hosts (ARCHITECTURE.md, "Hosts"): this machine's runs from local
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
	args := []string{api.Ls.Name(), "--json", "--host", config.LocalHost}
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

// LsArgs are corral ls's flags.
type LsArgs struct {
	StateDir string
	Host     string // --host: only this host's runs (local: this machine's)
	All      bool   // --all: runs that ended longer ago than the finished-run TTL too
	JSON     bool
	Timeout  time.Duration // how long each other host is given (0: client.OutputLimit)
}

// Ls is corral ls: the registry's runs here; with [[host]] entries in the config,
// every host's (--host narrows to one), the host beside each id.
func Ls(a LsArgs, stdout, stderr io.Writer) int {
	hosts, err := UserHosts()
	if err != nil && a.Host != "" && a.Host != config.LocalHost {
		fmt.Fprintf(stderr, "corral ls: %v\n", err)
		return ExitUsage
	}
	if err != nil {
		warn(stderr, fmt.Sprintf("the config's [[host]] entries not read: %v", err))
	}
	local := func() (listing.Doc, error) { return listLocal(a.StateDir, a.All, stderr) }
	if a.Host == config.LocalHost || a.Host == "" && len(hosts) == 0 {
		if out, ok := listHeld(a.StateDir, a.All, a.JSON); ok {
			stdout.Write(out)
			return ExitOK
		}
		doc, err := local()
		if err != nil {
			fmt.Fprintf(stderr, "corral ls: %v\n", err)
			return ExitFailure
		}
		if a.JSON {
			listing.WriteJSON(stdout, doc.Runs, doc.Metrics)
		} else {
			listing.WriteTable(stdout, doc.Runs)
		}
		return ExitOK
	}
	return listHosts(hosts, a, local, stdout, stderr)
}

// listHosts is corral ls across the configured hosts (a.Host: only that one); a host
// that could not be listed is its error in the listing (a line of the table, an
// "error" of --json), one line on stderr too, and exit code 1.
func listHosts(hosts []client.Host, a LsArgs, local func() (listing.Doc, error), stdout, stderr io.Writer) int {
	sel := append([]client.Host{{Name: config.LocalHost}}, hosts...)
	if a.Host != "" {
		h, err := FindHost(hosts, a.Host)
		if err != nil {
			fmt.Fprintf(stderr, "corral ls: %v\n", err)
			return ExitUsage
		}
		if a.StateDir != "" {
			h.StateDir = a.StateDir // the state dir there
		}
		sel = []client.Host{h}
	}
	docs := ListHosts(sel, a.All, a.Timeout, local)
	if a.JSON {
		listing.WriteHostsJSON(stdout, docs)
	} else {
		listing.WriteHostsTable(stdout, docs)
	}
	code := ExitOK
	for _, d := range docs {
		if d.Err != nil {
			fmt.Fprintf(stderr, "corral ls: %v\n", d.Err)
			code = ExitFailure
		}
	}
	return code
}

// listHeld is corral ls's output as the state dir's server answers it from what it
// holds, when one runs: at a thousand runs, reading every record here took 6,021
// opens and 1,006 flocks. ok is false when none answers (none runs, or one older than
// the ls verb): the files are read then.
func listHeld(stateDir string, all, asJSON bool) (out []byte, ok bool) {
	dir, err := config.StateDir(stateDir)
	if err != nil {
		return nil, false
	}
	c, err := client.Dial(dir)
	if err != nil {
		return nil, false
	}
	defer c.Close()
	// Raw: the output comes after the reply's line as printed, not read here (a server
	// older than that answers in JSON).
	var rep api.LsReply
	if err := c.Call(context.Background(), api.Ls.Name(), api.LsArgs{All: all, Table: !asJSON, Raw: true}, &rep); err != nil {
		return nil, false
	}
	if rep.Printed != nil {
		return rep.Printed, true
	}
	if !asJSON {
		return []byte(rep.Table), true
	}
	var b bytes.Buffer
	if json.Indent(&b, rep.Doc, "", "  ") != nil {
		return nil, false
	}
	b.WriteByte('\n') // as json.Encoder ends a document
	return b.Bytes(), true
}

// listLocal is this machine's registry as corral ls lists it: from its server when
// one runs, else from its files.
func listLocal(stateDir string, all bool, stderr io.Writer) (listing.Doc, error) {
	if out, ok := listHeld(stateDir, all, true); ok {
		var doc listing.Doc
		if err := json.Unmarshal(out, &doc); err == nil {
			return doc, nil
		}
	}
	dir, err := config.StateDir(stateDir)
	var reg *runs.Registry
	if err == nil {
		reg, err = runs.OpenRegistry(dir, config.Default())
	}
	if err != nil {
		return listing.Doc{}, err
	}
	defer reg.Close()
	for _, w := range reg.Warnings() {
		warn(stderr, w)
	}
	if st, ok := keeper.Find(dir); ok && st.Failures >= keeper.FailLimit {
		// The records say the runs' owner is dead; they are kept, and no server comes up.
		warn(stderr, (&client.KeeperDown{Status: st}).Error())
	}
	rs, err := listing.List(reg, all, config.Default().FinishedTTL)
	if c, derr := client.Dial(dir); derr == nil { // a server older than waiting runs' records keeps them in memory only
		if l, lerr := api.List.Call(context.Background(), c, struct{}{}); lerr == nil {
			rs = append(rs, listing.Waiting(l.Runs, rs)...)
		}
		c.Close()
	}
	return listing.Doc{Runs: rs, Metrics: reg.Totals()}, err
}

// warn says on stderr what Corral found wrong and went on regardless.
func warn(stderr io.Writer, w string) { fmt.Fprintf(stderr, "corral: %s\n", w) }
