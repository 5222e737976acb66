// Corral's web view: the run list, the run in view drawn from Corral's cells, and
// the keys, answers and lines sent to it. Everything it shows comes from the live
// channel (/api/live, Server-Sent Events); everything it does is a POST.
'use strict';

const $ = (id) => document.getElementById(id);
const st = { runs: new Map(), view: null, client: '', readOnly: false, es: null, rows: [], cols: 0, sw: null, hosts: [] };

// ---- the live channel -------------------------------------------------------

function connect() {
  if (st.es) st.es.close();
  const url = '/api/live' + (st.view ? '?view=' + encodeURIComponent(st.view) : '');
  const es = new EventSource(url);
  st.es = es;
  es.onmessage = (e) => handle(JSON.parse(e.data));
  es.onerror = () => {
    if (es !== st.es) return;
    $('link').textContent = 'reconnecting…';
    if (es.readyState === EventSource.CLOSED) refused(es); // else the browser connects again itself
  };
}

// refused follows a live channel the server refused: signed out (the token changed,
// the cookie expired), the page says so and stops asking; else (a run gone, too many
// pages open, corral web restarting) it connects again, waiting longer each time.
async function refused(es) {
  let signedOut = false;
  try { signedOut = (await fetch('/api/session', { cache: 'no-store' })).status === 401; } catch (e) { /* away: try again */ }
  if (es !== st.es) return;
  if (signedOut) {
    $('link').textContent = 'signed out: open the address corral web printed';
    return;
  }
  st.retry = Math.min((st.retry || 500) * 2, 10000);
  setTimeout(() => { if (es === st.es) { if (st.view && !st.runs.has(st.view)) open(null); else connect(); } }, st.retry);
}

function handle(m) {
  switch (m.type) {
    case 'hello':
      st.client = m.client; st.readOnly = m.read_only; st.retry = 0; $('link').textContent = '';
      document.body.classList.toggle('ro', st.readOnly);
      sendFocus();
      break;
    case 'runs':
      st.runs = new Map(m.runs.map((r) => [r.id, r]));
      st.hosts = m.hosts || [];
      $('link').textContent = m.lost ? 'server lost, reconnecting…' : '';
      renderList(); renderRun();
      break;
    case 'run':
      st.runs.set(m.run.id, m.run); renderList(); if (m.run.id === st.view) renderRun();
      break;
    case 'removed':
      st.runs.delete(m.id); renderList(); if (m.id === st.view) open(null);
      break;
    case 'screen':
      if (m.id === st.view) drawScreen(m);
      break;
    case 'hosts':
      st.hosts = m.hosts || []; renderList();
      break;
    case 'notify':
      notify(m);
      break;
    case 'server':
      $('link').textContent = { lost: 'server lost, reconnecting…', back: '', gone: 'the server stopped' }[m.state] || '';
      break;
  }
}

// ---- the list ----------------------------------------------------------------

function stateOf(r) {
  if (r.state === 'exited') return 'ended';
  return r.agent_state || r.state;
}

function renderList() {
  const f = $('filter').value.trim().toLowerCase();
  const rs = [...st.runs.values()].filter((r) => !f || (r.name + ' ' + r.id + ' ' + (r.agent || '') + ' ' + stateOf(r)).toLowerCase().includes(f));
  const counts = {};
  for (const r of st.runs.values()) if (r.state !== 'exited' && r.agent_state) counts[r.agent_state] = (counts[r.agent_state] || 0) + 1;
  $('counts').textContent = ['waiting', 'working', 'idle'].filter((s) => counts[s]).map((s) => counts[s] + ' ' + s).join(' · ');
  // Over several hosts each has its group, in the order given (this machine's
  // first), shown even while it has no run or cannot be reached.
  const hosts = new Map(st.hosts.map((h) => [h.name, []]));
  for (const r of rs) { const h = r.host || ''; if (!hosts.has(h)) hosts.set(h, []); hosts.get(h).push(r); }
  const info = new Map(st.hosts.map((h) => [h.name, h]));
  const out = [];
  for (const [h, list] of hosts) {
    const hi = info.get(h);
    if (hosts.size > 1 || h) {
      const d = document.createElement('div'); d.className = 'host'; d.dataset.host = h;
      d.textContent = (hi && hi.local) || !h ? 'this machine' : h;
      if (hi && hi.status !== 'connected') {
        const w = document.createElement('span'); w.className = 'hs'; w.textContent = ' · ' + hi.status;
        if (hi.err) w.title = hi.err;
        d.append(w); d.classList.add('down');
      }
      out.push(d);
    }
    for (const r of list) out.push(rowEl(r));
  }
  $('runs').replaceChildren(...out);
  if (!rs.length && !st.hosts.length) $('runs').textContent = st.runs.size ? 'No run matches.' : 'No runs.';
}

function rowEl(r) {
  const d = document.createElement('div');
  const s = stateOf(r);
  d.className = 'row ' + s + (r.id === st.view ? ' sel' : '');
  d.dataset.id = r.id;
  const g = document.createElement('span'); g.className = 'g';
  g.textContent = r.state === 'exited' ? (r.exit === 0 ? '✓' : '✗') : (r.glyph || '•');
  const n = document.createElement('span'); n.className = 'n'; n.textContent = r.name || r.id;
  const t = document.createElement('span'); t.className = 's';
  t.textContent = r.state === 'exited' ? (r.reason || 'ended') + (r.exit != null ? ' ' + r.exit : '') : (r.agent_state ? r.agent + ' ' + r.agent_state : r.state) + (r.paused ? ' (paused)' : '');
  d.append(g, n, t);
  d.onclick = () => open(r.id);
  return d;
}

// ---- the run in view ------------------------------------------------------------

function open(id) {
  if (st.view === id) return;
  sendFocus(false);
  st.view = id; st.rows = []; st.cols = 0;
  history.replaceState(null, '', id ? '#run=' + encodeURIComponent(id) : '#');
  document.body.classList.toggle('viewing', !!id);
  $('run').hidden = !id;
  $('screen').replaceChildren(); $('history').hidden = true; $('history').replaceChildren(); $('error').textContent = '';
  renderList(); renderRun(); connect();
  if (id && matchMedia('(min-width: 900px)').matches) $('screen').focus();
}

function renderRun() {
  const r = st.view && st.runs.get(st.view);
  if (!r) return;
  $('runname').textContent = r.name || r.id;
  $('runstate').textContent = stateOf(r);
  $('approve').hidden = !r.approve; $('deny').hidden = !r.deny;
}

function drawScreen(m) {
  const scr = $('screen');
  if (m.full || st.rows.length !== m.rows) {
    st.rows = [];
    for (let y = 0; y < m.rows; y++) { const d = document.createElement('div'); st.rows.push(d); }
    scr.replaceChildren(...st.rows);
  }
  if (st.cols !== m.cols) { st.cols = m.cols; fit(); }
  for (const [y, spans] of Object.entries(m.lines)) st.rows[+y].replaceChildren(...spans.map(spanEl));
}

const ATTR = { bold: 1, dim: 2, italic: 4, underline: 8, blink: 16, reverse: 32, hidden: 64, strike: 128, overline: 256 };
const BASE = ['#000000', '#cd3131', '#0dbc79', '#e5e510', '#2472c8', '#bc3fbc', '#11a8cd', '#e5e5e5',
  '#666666', '#f14c4c', '#23d18b', '#f5f543', '#3b8eea', '#d670d6', '#29b8db', '#ffffff'];

function paletteColour(n) {
  if (n < 16) return BASE[n];
  if (n < 232) { n -= 16; const v = (x) => (x ? x * 40 + 55 : 0); return `rgb(${v(Math.floor(n / 36))},${v(Math.floor(n / 6) % 6)},${v(n % 6)})`; }
  const g = (n - 232) * 10 + 8; return `rgb(${g},${g},${g})`;
}
const colour = (c) => (!c ? '' : c[0] === 'i' ? paletteColour(+c.slice(1)) : c);

function spanEl(s) {
  const e = document.createElement('span');
  e.textContent = s.t;
  let fg = colour(s.f), bg = colour(s.b);
  const a = s.a || 0;
  if (a & ATTR.reverse) { [fg, bg] = [bg || '#0b0c0e', fg || '#d4d4d4']; }
  if (fg) e.style.color = fg;
  if (bg) e.style.background = bg;
  if (a & ATTR.bold) e.style.fontWeight = '700';
  if (a & ATTR.dim) e.style.opacity = '.6';
  if (a & ATTR.italic) e.style.fontStyle = 'italic';
  const lines = [a & ATTR.underline && 'underline', a & ATTR.strike && 'line-through', a & ATTR.overline && 'overline'].filter(Boolean);
  if (lines.length) e.style.textDecoration = lines.join(' ');
  if (a & ATTR.hidden) e.style.visibility = 'hidden';
  if (s.w === 2) e.className = 'w';
  if (s.c) e.classList.add('cur');
  return e;
}

// fit sizes the screen's font so that its columns fill the width, no more.
let charWidth = 0;
function fit() {
  const scr = $('screen');
  if (!charWidth) {
    const probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;visibility:hidden;font-size:100px;white-space:pre';
    probe.textContent = 'MMMMMMMMMM';
    scr.appendChild(probe); charWidth = probe.getBoundingClientRect().width / 10 / 100; probe.remove();
  }
  if (!st.cols || !charWidth) return;
  const px = Math.min(16, Math.floor((scr.clientWidth - 2) / st.cols / charWidth * 100) / 100);
  scr.style.fontSize = px + 'px'; $('history').style.fontSize = px + 'px';
}
addEventListener('resize', fit);

// ---- input ----------------------------------------------------------------------------

async function post(path, body) {
  if (!st.view) return false;
  const r = await fetch('/api/runs/' + encodeURIComponent(st.view) + '/' + path, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body || {}) });
  $('error').textContent = r.ok ? '' : (await r.text()).trim();
  return r.ok;
}

// Keys go one request at a time, in order; those typed meanwhile go in the next.
let keyQueue = [], keyBusy = false;
async function sendKeys(words) {
  keyQueue.push(...words);
  if (keyBusy) return;
  keyBusy = true;
  while (keyQueue.length) { const k = keyQueue; keyQueue = []; await post('keys', { keys: k }).catch(() => {}); }
  keyBusy = false;
}

const NAMED = { Enter: 'Enter', Backspace: 'BSpace', Tab: 'Tab', Escape: 'Escape', ArrowUp: 'Up', ArrowDown: 'Down',
  ArrowLeft: 'Left', ArrowRight: 'Right', Home: 'Home', End: 'End', PageUp: 'PageUp', PageDown: 'PageDown',
  Insert: 'Insert', Delete: 'Delete' };

// word is the send-keys word of a key press, or '' for one the page leaves alone.
function word(e) {
  let w = NAMED[e.key] || (/^F([1-9]|1[0-2])$/.test(e.key) ? e.key : '');
  if (!w && e.key.length === 1) w = e.key;
  if (!w) return '';
  if (e.key.length === 1 && !e.ctrlKey && !e.altKey && !e.metaKey) return w;
  if (e.metaKey) return '';
  if (w === 'Tab' && e.shiftKey) return 'BTab';
  let p = '';
  if (e.ctrlKey) p += 'C-';
  if (e.altKey) p += 'M-';
  if (e.shiftKey && e.key.length !== 1) p += 'S-';
  return p + (e.ctrlKey && w.length === 1 ? w.toLowerCase() : w);
}

$('screen').addEventListener('keydown', (e) => {
  if (st.readOnly) return;
  const w = word(e);
  if (!w) return;
  e.preventDefault();
  sendKeys([w]);
});
$('screen').addEventListener('paste', (e) => {
  e.preventDefault();
  const t = e.clipboardData.getData('text');
  if (t && !st.readOnly) post('paste', { text: t });
});
$('line').addEventListener('submit', async (e) => {
  e.preventDefault();
  if (await post('submit', { text: $('text').value })) $('text').value = '';
});
$('paste').onclick = async () => { if (await post('paste', { text: $('text').value })) $('text').value = ''; };
$('esc').onclick = () => sendKeys(['Escape']);
// An answer names the question it answers: one that came after is not answered.
function question() { const r = st.runs.get(st.view) || {}; return { rule: r.rule || '', since: r.since || 0 }; }
$('approve').onclick = () => post('approve', question());
$('deny').onclick = () => post('deny', question());
$('interrupt').onclick = () => post('interrupt');
let cancelArmed = 0;
$('cancel').onclick = () => {
  const b = $('cancel');
  if (!cancelArmed) {
    b.textContent = 'Really cancel?';
    cancelArmed = setTimeout(() => { cancelArmed = 0; b.textContent = 'Cancel run'; }, 4000);
    return;
  }
  clearTimeout(cancelArmed); cancelArmed = 0; b.textContent = 'Cancel run';
  post('cancel');
};
$('back').onclick = () => open(null);
$('filter').addEventListener('input', renderList);
$('more').onclick = async () => {
  const h = $('history');
  if (!h.hidden) { h.hidden = true; return; }
  const r = await fetch('/api/runs/' + encodeURIComponent(st.view) + '/history');
  if (!r.ok) { $('error').textContent = (await r.text()).trim(); return; }
  const j = await r.json();
  h.replaceChildren(...j.lines.map((spans) => { const d = document.createElement('div'); d.append(...spans.map(spanEl)); return d; }));
  h.hidden = false; h.scrollTop = h.scrollHeight;
};

// ---- focus and notifications ---------------------------------------------------

// The server says nothing of a run somebody looks at: the page says when it does.
function sendFocus(on) {
  if (!st.client || st.readOnly) return; // read-only: the server would report focus to the run
  const focused = on !== undefined ? on : !!st.view && document.hasFocus() && document.visibilityState === 'visible';
  fetch('/api/focus', { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ client: st.client, focused }) }).catch(() => {});
}
addEventListener('focus', () => sendFocus());
addEventListener('blur', () => sendFocus());
document.addEventListener('visibilitychange', () => sendFocus());

// notify raises the server's notification (already coalesced per run there), one
// per run at a time (its tag), never for the run in view while the page has focus.
function notify(m) {
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  if (m.id === st.view && document.hasFocus()) return;
  const title = (m.name || m.id) + ' needs you';
  const opts = { body: m.text || '', tag: 'corral-' + m.id, renotify: true, data: { id: m.id } };
  if (st.sw) st.sw.showNotification(title, opts).catch(() => pageNotification(title, opts));
  else pageNotification(title, opts);
}

// pageNotification is one the page itself shows, when no service worker can: it goes
// with the page, and a browser that allows only a worker's (a phone's) refuses it.
function pageNotification(title, opts) {
  try { new Notification(title, opts); } catch (e) { /* nothing shows it */ }
}

function notifyButton() {
  const b = $('notify');
  b.hidden = !('Notification' in window) || Notification.permission !== 'default';
  b.onclick = async () => { await Notification.requestPermission(); notifyButton(); };
}

if ('serviceWorker' in navigator) {
  // The worker that shows notifications is whichever is active for the page, not only
  // the one this register installs: when this page's register fails (its script's fetch
  // cut short), an earlier page's worker still serves it.
  navigator.serviceWorker.ready.then((r) => { st.sw = r; });
  navigator.serviceWorker.register('/sw.js').catch(() => {});
  navigator.serviceWorker.addEventListener('message', (e) => { if (e.data && e.data.open) open(e.data.open); });
}

notifyButton();
const m = /#run=([^&]+)/.exec(location.hash);
if (m) open(decodeURIComponent(m[1])); else connect();
