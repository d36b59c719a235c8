/*
 * The portal's service worker (issue 50): the app shell (the page, its scripts and styles, the
 * manifest and icons) cached so the portal opens without network; nothing else. The API's answers
 * are never touched here: the patient's data offline is the page's own copy in the session's
 * storage, which signing out or the idle logout clears (session.ts). The build (vite.config.ts)
 * writes the shell's files into PRECACHE and a version that changes with them.
 */
/* global self, caches */
const VERSION = '__VIGIA_SW_VERSION__';
// eslint-disable-next-line no-undef -- the build writes the list in its place
const PRECACHE = __VIGIA_SW_PRECACHE__;
/** The page every screen of the portal is (the API answers /portal_patient and /login_patient with it). */
const SHELL = '/portal_patient';
const CACHE = `vigia-portal-shell-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll([SHELL, ...PRECACHE].map((url) => new Request(url, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('vigia-portal-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') {
    // The network first, so a new release is seen at once; the cached page when there is none.
    event.respondWith(fetch(request).catch(() => caches.match(SHELL)));
    return;
  }
  if (url.pathname.startsWith('/portal/assets/') || PRECACHE.includes(url.pathname)) {
    // Hashed names never change their content: the cache first; a chunk first asked for (the charts) is kept.
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ??
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
            }
            return response;
          }),
      ),
    );
  }
});
