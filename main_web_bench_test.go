package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
)

// webBench is a server with one PTY run of cmd, corral web, and a headless page
// viewing the run.
type webBench struct {
	env         []string
	id          string
	server, web int
	ctx         context.Context
}

func newWebBench(b *testing.B, shell string) *webBench {
	chromium(b)
	env, state := webEnv(b)
	r := agentCorral(b, env, "spawn", "--pty", "--name", "bench", "--shell", "--", shell)
	if r.code != 0 {
		b.Fatalf("spawn: %+v", r)
	}
	w := &webBench{env: env, id: strings.TrimSpace(r.stdout), server: serverPID(b, state)}
	fp := testkit.Pin(b, w.server)
	b.Cleanup(func() {
		if fp.Signal(syscall.SIGTERM) == nil {
			waitGone(b, fp.PID, "server")
		}
	})
	url, pid := startWeb(b, env)
	w.web = pid
	w.ctx = newBrowser(b, originOf(url))
	do(b, w.ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`.row[data-id="`+w.id+`"]`)))
	openRow(b, w.ctx, w.id)
	do(b, w.ctx, chromedp.WaitVisible(chromedp.ID("screen")))
	return w
}

// cpu is a process's user and system time so far.
func cpu(b *testing.B, pid int) time.Duration {
	b.Helper()
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		b.Fatal(err)
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ
}

// A key pressed in the page to its echo drawn on the page: the page times it
// itself (keydown to the DOM change that shows one more character).
func BenchmarkWebKeyEcho(b *testing.B) {
	w := newWebBench(b, "exec cat")
	eval[bool](b, w.ctx, `(() => {
	  const scr = document.getElementById('screen'), text = () => scr.textContent.replace(/\s+$/, '');
	  window.__lat = []; window.__len = text().length; window.__t0 = 0;
	  scr.addEventListener('keydown', () => { window.__t0 = performance.now(); }, true);
	  new MutationObserver(() => {
	    const n = text().length;
	    if (window.__t0 && n > window.__len) { window.__lat.push(performance.now() - window.__t0); window.__t0 = 0; }
	    window.__len = n;
	  }).observe(scr, { subtree: true, childList: true, characterData: true });
	  return true; })()`)
	do(b, w.ctx, chromedp.Focus(chromedp.ID("screen")))
	b.ResetTimer()
	for i := range b.N {
		do(b, w.ctx, chromedp.KeyEvent(string(rune('a'+i%26))))
		eventually.True(b, 10*time.Second, "the echo", func() bool {
			return eval[int](b, w.ctx, `window.__lat.length`) > i
		})
	}
	b.StopTimer()
	lat := eval[[]float64](b, w.ctx, `window.__lat`)
	slices.Sort(lat)
	b.ReportMetric(lat[len(lat)/2], "ms-p50")
	b.ReportMetric(lat[len(lat)*9/10], "ms-p90")
}

// The server's and corral web's CPU while a page views an idle run: the window is
// CORRAL_WEB_IDLE (default 10s; the budget is stated for 60 s).
func BenchmarkWebIdleCPU(b *testing.B) {
	window := 10 * time.Second
	if d, err := time.ParseDuration(os.Getenv("CORRAL_WEB_IDLE")); err == nil {
		window = d
	}
	w := newWebBench(b, "exec cat")
	do(b, w.ctx, chromedp.WaitVisible(chromedp.CSS("#screen > div")))
	b.ResetTimer()
	for range b.N {
		s0, w0, t0 := cpu(b, w.server), cpu(b, w.web), time.Now()
		time.Sleep(window) // the measurement window itself: nothing to wait for
		el := time.Since(t0)
		b.ReportMetric(100*float64(cpu(b, w.server)-s0)/float64(el), "%core-server")
		b.ReportMetric(100*float64(cpu(b, w.web)-w0)/float64(el), "%core-web")
	}
}

// A flood in the viewed run: the page's JavaScript heap and corral web's memory
// stay bounded (CORRAL_WEB_FLOOD_MB, default 100).
func BenchmarkWebFlood(b *testing.B) {
	mb := 100
	if n, err := strconv.Atoi(os.Getenv("CORRAL_WEB_FLOOD_MB")); err == nil {
		mb = n
	}
	w := newWebBench(b, fmt.Sprintf("read go; head -c %d /dev/zero | tr '\\0' 'x'; echo; echo FLOOD-DONE; exec cat", mb<<20))
	b.ResetTimer()
	var heap float64
	for range b.N {
		start := time.Now()
		agentCorral(b, w.env, "send-keys", w.id, "Enter")
		for !strings.Contains(eval[string](b, w.ctx, screenJS), "FLOOD-DONE") {
			u, err := chromedp.Call(w.ctx, cdpruntime.GetHeapUsage, cdp.Empty{})
			if err != nil {
				b.Fatal(err)
			}
			heap = max(heap, u.UsedSize)
			if time.Since(start) > 10*time.Minute {
				b.Fatal("the flood did not end in 10 minutes")
			}
		}
		b.ReportMetric(time.Since(start).Seconds(), "s-flood")
	}
	b.ReportMetric(heap/(1<<20), "MB-page-heap-max")
	b.ReportMetric(float64(peakRSS(b, w.web))/(1<<20), "MB-web-rss-peak")
	b.ReportMetric(float64(peakRSS(b, w.server))/(1<<20), "MB-server-rss-peak")
}

// peakRSS is a process's peak resident set (VmHWM).
func peakRSS(b *testing.B, pid int) int64 {
	data, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}
