package main

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"
)

// corral web takes the hosts corral attach takes, from the same config: with a
// [[host]] (beta, a real sshd with a state dir of its own) the page's list has this
// machine's group and beta's, beta's run in it; --ssh given twice the same is the
// usage error attach gives.
func TestWebHostsFromConfig(t *testing.T) {
	h := startHosts(t, "", "beta")
	if sp := h.corral("spawn", "--host", "beta", "--name", "beta-run", "--", "sleep", "600"); sp.code != 0 {
		t.Fatalf("spawn --host beta: %+v", sp)
	}
	if sp := h.corral("spawn", "--name", "here-run", "--", "sleep", "600"); sp.code != 0 {
		t.Fatalf("spawn here: %+v", sp)
	}
	if r := h.corral("web", "--listen", "127.0.0.1:0", "--ssh", "local", "--ssh", "local"); r.code != exitUsage || !strings.Contains(r.stderr, "give each host once") {
		t.Errorf("web --ssh local twice: %+v", r)
	}
	url, _ := startWeb(t, h.env)
	jar, _ := cookiejar.New(nil)
	cl := &http.Client{Jar: jar}
	if r, err := cl.Get(url); err != nil || r.StatusCode != 200 {
		t.Fatalf("login: %v %v", err, r)
	} else {
		r.Body.Close()
	}
	base := url[:strings.Index(url, "/login")]
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/live", nil)
	r, err := cl.Do(req)
	if err != nil || r.StatusCode != 200 {
		t.Fatalf("live: %v %v", err, r)
	}
	defer r.Body.Close()
	sc := bufio.NewScanner(r.Body)
	sc.Buffer(nil, 1<<20)
	var last string
	for sc.Scan() {
		d, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var m struct {
			Type string
			Runs []struct{ Name, Host string }
			// the hosts heading the groups
			Hosts []struct{ Name, Status string }
		}
		json.Unmarshal([]byte(d), &m)
		if m.Type != "runs" && m.Type != "hosts" {
			continue
		}
		last = d
		if m.Type == "hosts" { // beta attached after the list was sent: a fresh one follows
			continue
		}
		hosts := map[string]string{}
		for _, x := range m.Hosts {
			hosts[x.Name] = x.Status
		}
		runs := map[string]string{}
		for _, x := range m.Runs {
			runs[x.Name] = x.Host
		}
		if hosts["local"] == "connected" && hosts["beta"] == "connected" && runs["beta-run"] == "beta" && runs["here-run"] == "local" {
			return
		}
	}
	t.Fatalf("no list with both hosts' groups; the last: %s", last)
}
