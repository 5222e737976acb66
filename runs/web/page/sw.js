// Corral's service worker: notifications that reach the user with the page in a
// background tab or installed to the home screen, and the page's files kept for
// when the network is not there.
'use strict';
const CACHE = 'corral-web-1';
const FILES = ['/', '/app.js', '/style.css', '/manifest.webmanifest', '/icon.svg'];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).catch(() => {}).then(() => self.skipWaiting()));
});
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));

// The page's own files: the network first (a new binary's page), the cache when
// there is none. Nothing under /api/ is kept.
self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== self.location.origin || !FILES.includes(url.pathname)) return;
  e.respondWith(fetch(e.request).then((r) => {
    if (r.ok) { const copy = r.clone(); caches.open(CACHE).then((c) => c.put(e.request, copy)); }
    return r;
  }).catch(() => caches.match(e.request)));
});

// A tap on a notification shows its run: in an open page if there is one.
self.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const id = (e.notification.data || {}).id || '';
  e.waitUntil(self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((cs) => {
    for (const c of cs) {
      c.postMessage({ open: id });
      return c.focus();
    }
    return self.clients.openWindow('/#run=' + encodeURIComponent(id));
  }));
});
