package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
)

// webToyRules are the toy agent's rules with the keys that answer its question.
var webToyRules = strings.Replace(testkit.ToyRules, `all = ['Allow toy to run', '1\. Yes']`,
	"all = ['Allow toy to run', '1\\. Yes']\napprove = [\"Enter\"]\ndeny = [\"C-c\"]", 1)

// chromium is the browser the web tests drive, or a skip saying there is none.
func chromium(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no chromium to drive: the web view's browser tests need one (.ci/run installs Debian's chromium)")
	return ""
}

// webEnv is agentEnv with the toy's answer keys, its server's end at the test's.
func webEnv(t testing.TB) (env []string, state string) {
	t.Helper()
	env, _ = agentEnv(t)
	cfg := strings.TrimPrefix(env[1], "XDG_CONFIG_HOME=")
	os.WriteFile(filepath.Join(cfg, "corral", "agents", "toy.toml"), []byte(webToyRules), 0o600)
	state = strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	// Last before the dir goes (after the test's own cleanups end its server): the
	// keeper follows its server out, and writes in the state dir as it does.
	t.Cleanup(func() {
		if b, err := os.ReadFile(filepath.Join(state, "keeper.lock")); err == nil {
			if pid, _ := strconv.Atoi(strings.TrimSpace(string(b))); pid > 1 {
				waitGone(t, pid, "keeper")
			}
		}
	})
	return env, state
}

// startWeb runs corral web on a free loopback port and returns the URL it printed
// (the token in it); it is ended with the test.
func startWeb(t testing.TB, env []string, args ...string) (url string, pid int) {
	t.Helper()
	cmd := exec.Command(corralBin, append([]string{"web", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	m := regexp.MustCompile(`open (http://\S+)`).FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("corral web said %q (%v)", line, err)
	}
	return m[1], cmd.Process.Pid
}

// newBrowser starts a headless chromium, notifications granted to origin, the page
// told it has focus; the browser process ends (and is waited for) with the test. A
// chromium that dies while starting (seen once in a hundred under a loaded machine,
// before it served anything) is started again, twice at most: what is tested is the
// page, not chromium's start.
func newBrowser(t testing.TB, origin string) context.Context {
	t.Helper()
	var err error
	for try := 0; try < 3; try++ {
		var ctx context.Context
		if ctx, err = startBrowser(t, origin); err == nil {
			return ctx
		}
		if !strings.Contains(err.Error(), "chrome failed to start") {
			break
		}
		t.Logf("chromium did not start, again: %v", err)
	}
	t.Fatalf("grant notifications: %v", err)
	return nil
}

func startBrowser(t testing.TB, origin string) (context.Context, error) {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium(t)), chromedp.NoSandbox,
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1200, 900))
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	// Closed the browser's way first (Browser.close: chromium ends and reaps its own
	// helpers), then acancel kills what is left of it and waits for it.
	stop := func() { chromedp.Cancel(ctx); cancel(); acancel() }
	if _, err := chromedp.CallBrowser(ctx, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "notifications"}, Setting: browser.PermissionSettingGranted, Origin: origin}); err != nil {
		stop()
		return nil, err
	}
	t.Cleanup(stop)
	if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	return ctx, nil
}

// eval runs js in the page.
func eval[T any](t testing.TB, ctx context.Context, js string) T {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(c, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

func do(t testing.TB, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(c, steps...); err != nil {
		t.Fatal(err)
	}
}

// screenJS is the page's screen as text: its rows, trailing blanks and blank rows
// at the end cut, as corral screen prints it.
const screenJS = `[...document.querySelectorAll('#screen > div')].map(d => d.textContent.replace(/\s+$/, '')).join('\n').replace(/\n+$/, '')`

func trimScreen(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}

// notified is the tags of the notifications the page's service worker shows.
const notifiedJS = `navigator.serviceWorker.ready.then(r => r.getNotifications()).then(ns => ns.map(n => n.tag))`

// The web view end to end in a real browser: the token's URL opens the page, the
// runs are listed, a toy agent's screen reads as corral screen prints it, approve
// answers its question with its own key, a line typed on the page is echoed, a
// second agent's question raises a notification and the one in view does not; a
// phone's viewport shows the list and the buttons without scrolling sideways.
func TestWebBrowser(t *testing.T) {
	chromium(t)
	env, state := webEnv(t)
	spawn := func(name string) string {
		r := agentCorral(t, env, "spawn", "--pty", "--agent", "toy", "--name", name, "--shell", "--", toyAgent)
		if r.code != 0 {
			t.Fatalf("spawn: %+v", r)
		}
		return strings.TrimSpace(r.stdout)
	}
	a := spawn("alpha")
	endLater(t, testkit.Pin(t, serverPID(t, state)), syscall.SIGTERM, "server")
	url, _ := startWeb(t, env)
	ctx := newBrowser(t, originOf(url))

	// No token: nothing.
	do(t, ctx, chromedp.Navigate(originOf(url)+"/"))
	if body := eval[string](t, ctx, `document.body.innerText`); !strings.Contains(body, "not signed in") {
		t.Fatalf("the page without the token: %q", body)
	}
	do(t, ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`.row[data-id="`+a+`"]`)))
	if loc := eval[string](t, ctx, `location.href`); strings.Contains(loc, "token") {
		t.Errorf("the token stays in the address: %s", loc)
	}
	if ok := eval[bool](t, ctx, `document.cookie === ''`); !ok {
		t.Error("the session cookie is readable by the page's scripts")
	}
	eventually.True(t, 20*time.Second, "the service worker to be ready", func() bool {
		return eval[bool](t, ctx, `navigator.serviceWorker.ready.then(() => true)`)
	})

	// Open alpha; once it idles at its prompt, give it a task from the page.
	openRow(t, ctx, a)
	do(t, ctx, chromedp.WaitVisible(chromedp.ID("screen")))
	eventually.True(t, 20*time.Second, "alpha idle at its prompt", func() bool {
		return eval[bool](t, ctx, `!!document.querySelector('.row.idle[data-id="`+a+`"]')`)
	})
	do(t, ctx, chromedp.SendKeys(chromedp.ID("text"), "fix the tests"), chromedp.Click(chromedp.ID("submit")))
	do(t, ctx, chromedp.WaitVisible(chromedp.ID("approve")))
	if c := eval[string](t, ctx, `document.getElementById('counts').textContent`); !strings.Contains(c, "1 waiting") {
		t.Errorf("counts: %q", c)
	}

	// The screen is corral screen's, cell for cell.
	var page, cli string
	eventually.True(t, 10*time.Second, "the page's screen to read as corral screen", func() bool {
		page = eval[string](t, ctx, screenJS)
		cli = trimScreen(agentCorral(t, env, "screen", a).stdout)
		return page == cli && strings.Contains(page, "Allow toy to run ls?")
	})

	// A second agent starts waiting: a notification for it, none for alpha in view. A
	// notification the browser accepted counts as shown: headless chromium closes it
	// again after about 25 s (it has no notification centre to keep it in), which a
	// loaded machine's polls can miss. What the page is told is kept for the failure.
	eval[bool](t, ctx, `(() => { window.told = []; const h = handle;
	  handle = (m) => { window.told.push(m.type === 'notify' ? 'notify ' + m.id : m.type); h(m); };
	  const r = st.sw, show = r.showNotification.bind(r);
	  r.showNotification = (title, o) => show(title, o).then((v) => { window.told.push('shown ' + o.tag); return v; },
	    (e) => { window.told.push('refused ' + e); throw e; });
	  return true; })()`)
	shown := func() []string {
		return append(eval[[]string](t, ctx, notifiedJS),
			eval[[]string](t, ctx, `window.told.filter(s => s.startsWith('shown ')).map(s => s.slice(6))`)...)
	}
	b := spawn("beta")
	if r := agentCorral(t, env, "submit", "--json", b, "other", "work"); r.code != 0 {
		t.Fatalf("submit to beta: %+v", r)
	}
	if _, ok := eventually.Woken(30*time.Second, 50*time.Millisecond, (chan struct{})(nil), func() (struct{}, bool) {
		return struct{}{}, slicesContains(shown(), "corral-"+b)
	}); !ok {
		t.Fatalf("no notification for beta within 30s; the page: %s; beta's events:\n%s", eval[string](t, ctx,
			`JSON.stringify({told: window.told, worker: !!st.sw, permission: Notification.permission, view: st.view,
			  live: st.es && st.es.readyState, link: document.getElementById('link').textContent})`), runEvents(state, b))
	}
	if tags := shown(); slicesContains(tags, "corral-"+a) {
		t.Errorf("a notification for the run in view: %v", tags)
	}

	// One tap approves: the toy goes on and finishes its turn.
	do(t, ctx, chromedp.Click(chromedp.ID("approve")))
	eventually.True(t, 20*time.Second, "alpha done after approve", func() bool {
		return strings.Contains(eval[string](t, ctx, screenJS), "done: fix the tests TOY-DONE")
	})

	// Keys typed on the screen go to the run, encoded by Corral: the PTY echoes them.
	do(t, ctx, chromedp.Focus(chromedp.ID("screen")), chromedp.KeyEvent("typed-on-the-page"))
	eventually.True(t, 10*time.Second, "the typed line echoed", func() bool {
		return strings.Contains(eval[string](t, ctx, screenJS), "typed-on-the-page")
	})

	// Styles from Corral's cells: colour, bold, underline, reverse, a wide character,
	// the cursor.
	c := agentCorral(t, env, "spawn", "--pty", "--name", "colours", "--shell", "--",
		`printf '\033[1;31mbold red\033[0m \033[4;32munder green\033[0m \033[7mrev\033[0m 漢 wide\n'; exec cat`)
	cid := strings.TrimSpace(c.stdout)
	openRow(t, ctx, cid)
	eventually.True(t, 20*time.Second, "the coloured run drawn", func() bool {
		return strings.Contains(eval[string](t, ctx, screenJS), "bold red under green rev 漢 wide")
	})
	style := func(text, prop string) string {
		return eval[string](t, ctx, `(() => { const s = [...document.querySelectorAll('#screen span')].find(e => e.textContent === '`+text+`');
		  return s ? getComputedStyle(s)['`+prop+`'] + (s.className ? ' .' + s.className : '') : 'none'; })()`)
	}
	for _, c := range []struct{ text, prop, want string }{
		{"bold red", "color", "rgb(205, 49, 49)"}, {"bold red", "fontWeight", "700"},
		{"under green", "textDecorationLine", "underline"}, {"rev", "backgroundColor", "rgb(212, 212, 212)"},
		{"漢", "display", "inline-block .w"},
	} {
		if got := style(c.text, c.prop); got != c.want {
			t.Errorf("%q %s: %s, want %s", c.text, c.prop, got, c.want)
		}
	}
	if !eval[bool](t, ctx, `!!document.querySelector('#screen span.cur')`) {
		t.Error("no cursor drawn")
	}

	// A phone: the list, then the run with its buttons, nothing wider than the screen.
	do(t, ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulateScale(3)))
	do(t, ctx, chromedp.Click(chromedp.ID("back")), chromedp.WaitVisible(chromedp.CSS(`.row[data-id="`+b+`"]`)))
	wide := `Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) <= innerWidth`
	if !eval[bool](t, ctx, wide) {
		t.Errorf("the list scrolls sideways at 390 px: %v", eval[string](t, ctx, `[document.documentElement.scrollWidth, document.body.scrollWidth, innerWidth, document.documentElement.clientWidth].join(" ")`))
	}
	openRow(t, ctx, b)
	do(t, ctx, chromedp.WaitVisible(chromedp.ID("approve")))
	if !eval[bool](t, ctx, wide) {
		t.Errorf("the run scrolls sideways at 390 px: %v", eval[float64](t, ctx, `document.documentElement.scrollWidth`))
	}
	for _, id := range []string{"approve", "deny", "submit", "interrupt", "cancel"} {
		if !eval[bool](t, ctx, `(r => r.width > 0 && r.left >= 0 && r.right <= innerWidth && r.bottom <= innerHeight)(document.getElementById('`+id+`').getBoundingClientRect())`) {
			t.Errorf("#%s is not on the phone's screen", id)
		}
	}
	if eval[bool](t, ctx, `document.getElementById('list').offsetParent !== null`) {
		t.Error("the list and the run share a phone's width")
	}
}

// A pipe run in a real browser: its view is the tail of its output in its colours,
// its later output arrives live, its history opens; and a page whose session the
// server no longer knows (the token changed) says it is signed out instead of
// reconnecting for ever.
func TestWebPipeRunAndSignedOut(t *testing.T) {
	chromium(t)
	env, state := webEnv(t)
	flag := filepath.Join(t.TempDir(), "go-on")
	r := agentCorral(t, env, "spawn", "--name", "piped", "--shell", "--",
		`printf '\033[31mred on a pipe\033[0m\nsecond line\n'; while [ ! -e `+flag+` ]; do sleep 0.05; done; echo later-line; exec sleep 100000`)
	if r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	id := strings.TrimSpace(r.stdout)
	endLater(t, testkit.Pin(t, serverPID(t, state)), syscall.SIGTERM, "server")
	url, _ := startWeb(t, env)
	ctx := newBrowser(t, originOf(url))
	do(t, ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(`.row[data-id="`+id+`"]`)))
	openRow(t, ctx, id)
	eventually.True(t, 20*time.Second, "the pipe run's output drawn", func() bool {
		return eval[string](t, ctx, screenJS) == "red on a pipe\nsecond line"
	})
	colour := `(s => s ? getComputedStyle(s).color : 'none')([...document.querySelectorAll('#screen span')].find(e => e.textContent === 'red on a pipe'))`
	if got := eval[string](t, ctx, colour); got != "rgb(205, 49, 49)" {
		t.Errorf("the red line's colour: %s", got)
	}
	if err := os.WriteFile(flag, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	eventually.True(t, 20*time.Second, "the later line arrives live", func() bool {
		return strings.HasSuffix(eval[string](t, ctx, screenJS), "second line\nlater-line")
	})
	do(t, ctx, chromedp.Click(chromedp.ID("more")))
	eventually.True(t, 20*time.Second, "the pipe run's history shown", func() bool {
		return eval[string](t, ctx, `document.getElementById('history').hidden ? '' : document.getElementById('history').innerText`) != "" &&
			strings.Contains(eval[string](t, ctx, `document.getElementById('history').innerText`), "later-line")
	})
	if e := eval[string](t, ctx, `document.getElementById('error').textContent`); e != "" {
		t.Errorf("history: %s", e)
	}

	// The token changes (corral web started again with another): the page's cookie
	// opens nothing any more. Its live channel is refused; it says so and stops.
	if _, err := chromedp.Call(ctx, network.ClearBrowserCookies, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	eval[bool](t, ctx, `(connect(), true)`)
	eventually.True(t, 20*time.Second, "the page to say it is signed out", func() bool {
		return strings.Contains(eval[string](t, ctx, `document.getElementById('link').textContent`), "signed out")
	})
}

// openRow taps run id's row once it is there. In the page, not by a node the test
// looked up first: the list is drawn again whenever a run's row changes, and a node
// found a moment before may be gone by the time of the click.
func openRow(t testing.TB, ctx context.Context, id string) {
	t.Helper()
	// A run spawned a moment ago reaches the list through the live channel: its row
	// may not be drawn yet.
	eventually.True(t, 20*time.Second, "a row for "+id+" to tap", func() bool {
		return eval[bool](t, ctx, `(r => r ? (r.click(), true) : false)(document.querySelector('.row[data-id="`+id+`"]'))`)
	})
}

// originOf is a URL's scheme and host.
func originOf(url string) string {
	return url[:strings.Index(url[len("http://"):], "/")+len("http://")]
}

func slicesContains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// corral web refuses an address other machines reach unless told it is meant.
func TestWebRefusesExposure(t *testing.T) {
	r := run(t, corral(t, "web", "--listen", "0.0.0.0:0"))
	if r.code != exitUsage || !strings.Contains(r.stderr, "not a loopback address") || !strings.Contains(r.stderr, "--exposed") {
		t.Errorf("0.0.0.0 without a token file: %+v", r)
	}
	if r := run(t, corral(t, "web", "--listen", "nonsense")); r.code != exitUsage {
		t.Errorf("--listen nonsense: %+v", r)
	}
}

// runEvents is the lines of the state dir's events log that name run id: what a
// failure shows of the run's life.
func runEvents(state, id string) string {
	b, _ := os.ReadFile(filepath.Join(state, "events.jsonl"))
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, id) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
