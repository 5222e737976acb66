package listing

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"corral/runs"
)

// HostDoc is one host's part of corral ls across hosts (ARCHITECTURE.md, "Hosts"): its runs and
// counters, or why it could not be listed.
type HostDoc struct {
	Host string
	Doc
	Err error
}

// UnmarshalJSON reads a Run as corral ls --json wrote it (another host's): the
// record by its own reader, then what ls adds, which Record's promoted reader alone
// would drop.
func (r *Run) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, &r.Record); err != nil {
		return err
	}
	var more struct {
		OwnerAlive bool   `json:"owner_alive"`
		CPUMS      *int64 `json:"cpu_ms"`
		Memory     *int64 `json:"memory_bytes"`
		LeaseNote  string `json:"lease_note"`
	}
	if err := json.Unmarshal(b, &more); err != nil {
		return err
	}
	r.OwnerAlive, r.CPUMS, r.Memory, r.LeaseNote = more.OwnerAlive, more.CPUMS, more.Memory, more.LeaseNote
	if r.Memory != nil && *r.Memory < 0 { // a host running an older Corral wrote -1 for unknown
		r.Memory = nil
	}
	return nil
}

// WriteHostsTable writes every host's runs as one table, the host beside each id
// (ids are unique per host only). A host that could not be listed has one line in
// its place, its host and its error ("far  not listed: host far (ssh far): …"), so
// that the table itself says a host is missing, beside the runs of the others.
func WriteHostsTable(w io.Writer, hs []HostDoc) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "HOST\t"+header)
	for _, h := range hs {
		if h.Err != nil {
			// The error is the line's last cell, not tab-terminated: it sets no column's width.
			fmt.Fprintln(tw, runs.Printable(h.Host)+"\tnot listed: "+runs.Printable(h.Err.Error()))
			continue
		}
		for _, r := range h.Runs {
			fmt.Fprintln(tw, runs.Printable(h.Host)+"\t"+row(r))
		}
	}
	return tw.Flush()
}

// hostRun is a run in corral ls --json across hosts.
type hostRun struct {
	Host string `json:"host"`
	Run
}

// hostStatus is a host in corral ls --json across hosts: its counters, or why it
// was not listed.
type hostStatus struct {
	Host    string        `json:"host"`
	Metrics *runs.Metrics `json:"metrics,omitempty"`
	Error   string        `json:"error,omitempty"`
}

// WriteHostsJSON writes every host's runs, each with its host, and each host's
// counters or error: {"runs": [{"host", …}], "hosts": [{"host", "metrics"|"error"}]}.
func WriteHostsJSON(w io.Writer, hs []HostDoc) error {
	doc := struct {
		Runs  []hostRun    `json:"runs"`
		Hosts []hostStatus `json:"hosts"`
	}{Runs: []hostRun{}}
	for _, h := range hs {
		st := hostStatus{Host: h.Host}
		if h.Err != nil {
			st.Error = h.Err.Error()
		} else {
			st.Metrics = &h.Metrics
		}
		doc.Hosts = append(doc.Hosts, st)
		for _, r := range h.Runs {
			doc.Runs = append(doc.Runs, hostRun{h.Host, r})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
