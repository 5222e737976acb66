// Package web is corral web: a client of the state dir's server, like an attached
// UI, that serves one page and a live channel to browsers on a phone or a laptop.
//
// The page (page/, embedded) lists every run with its agent's state, shows the run
// in view as Corral's own cells (the server's frames, read back into cells by
// ptyhost/screen/grid, as corral export reads them) and sends keys, pastes and
// answers through the server's input verbs, where send-keys encodes them. The live
// channel is Server-Sent Events; everything the page asks goes by POST.
//
// Access always needs the token (printed once as a URL, kept 0600 in the state dir),
// exchanged for an HttpOnly, SameSite=Strict cookie; the Origin of the live channel
// and of every POST must be the page's own. Each browser has a bounded queue: one
// that cannot keep up loses its queue and gets a fresh full picture instead, so it
// never slows the server or another browser. Screen updates are row diffs, at most
// one per frame interval, of the run in view only; an idle page costs nothing (no
// timer runs while nothing changes).
package web
