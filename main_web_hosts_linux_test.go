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

	"github.com/chromedp/chromedp"

	"corral/demo/testkit/eventually"
)

// corral web takes the hosts corral attach takes, from the same config: with a
// [[host]] (beta, a real sshd with a state dir of its own) the page's list has this
// machine's group and beta's, beta's run in it; --ssh given twice the same is the
// usage error attach gives.
func TestWebHostsFromConfig(t *testing.T) {
	h := startHosts(t, "", "beta")
	sp := h.corral("spawn", "--host", "beta", "--name", "beta-run", "--", "sleep", "600")
	if sp.code != 0 {
		t.Fatalf("spawn --host beta: %+v", sp)
	}
	betaID := strings.TrimSpace(sp.stdout)
	sp = h.corral("spawn", "--name", "here-run", "--", "sleep", "600")
	if sp.code != 0 {
		t.Fatalf("spawn here: %+v", sp)
	}
	hereID := strings.TrimSpace(sp.stdout)
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
			cancel()
			webHostsInBrowser(t, h, url, hereID, betaID)
			return
		}
	}
	t.Fatalf("no list with both hosts' groups; the last: %s", last)
}

// webHostsInBrowser: the page draws this machine's group first, then beta's; beta
// gone (its sshd stopped) is said in its group's head, and back, no more.
func webHostsInBrowser(t *testing.T, h *hosts, url, hereID, betaID string) {
	ctx := newBrowser(t, originOf(url))
	do(t, ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`.row[data-id="`+betaID+`"]`)))
	order := `[...document.querySelectorAll('#runs > .host, #runs > .row')].map((e) => e.dataset.host !== undefined ? 'host ' + e.textContent : e.dataset.id).join(' | ')`
	if got, want := eval[string](t, ctx, order), "host this machine | "+hereID+" | host beta | "+betaID; got != want {
		t.Errorf("the list: %q, want %q", got, want)
	}
	head := `(document.querySelector('#runs > .host[data-host="beta"]') || {}).textContent || ''`
	h.fleet.Host("beta").Stop()
	eventually.True(t, 30*time.Second, "beta's group says it is unreachable", func() bool {
		return strings.Contains(eval[string](t, ctx, head), "unreachable")
	})
	h.fleet.Host("beta").Restart()
	eventually.True(t, 60*time.Second, "beta's group back, its run in it", func() bool {
		return eval[string](t, ctx, head) == "beta" && eval[bool](t, ctx, `!!document.querySelector('.row[data-id="`+betaID+`"]')`)
	})
}
