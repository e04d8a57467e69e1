/* global document, window */
// Runs before the app bundle (an external file: the CSP allows no inline script) so the first
// paint already has the stored theme and the document direction — no flash of light/LTR.
(function () {
  try {
    var d = document.documentElement;
    var t = localStorage.getItem('theme');
    d.setAttribute('data-mantine-color-scheme', t === 'dark' ? 'dark' : 'light');
    var m = /(?:^|; )language=(en|ar)/.exec(document.cookie);
    var nav = (navigator.languages && navigator.languages[0]) || navigator.language || '';
    var l = (m && m[1]) || localStorage.getItem('language') || nav;
    if (/^ar\b/i.test(l)) {
      d.lang = 'ar';
      d.dir = 'rtl';
      // the installable app's name in Arabic (a second manifest: one manifest has one language)
      var m2 = document.querySelector('link[rel="manifest"]');
      if (m2) m2.setAttribute('href', '/manifest.ar.webmanifest');
    }
  } catch {
    /* storage blocked: defaults apply */
  }
  // A signed-in reader's access token lives in memory only (issue 6), so every page load begins by
  // regenerating it from the HttpOnly refresh cookie. Ask now, while the app's modules download,
  // instead of after they have run (issue 23: that request and the page's first search were the
  // last steps before the load search's first rows). The app adopts this answer for its first
  // regeneration (src/lib/session.tsx, bootRegeneration) and never sends a second one. Signed in =
  // the `uid` and `userType` cookies of src/lib/storage.ts; same request as the app's own.
  try {
    if (window.fetch && /(?:^|; )uid=[^;]/.test(document.cookie) && /(?:^|; )userType=[123](?:;|$)/.test(document.cookie)) {
      window.__masarBootToken = fetch('/api/v1/generateToken', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          language: document.documentElement.lang === 'ar' ? 'ar' : 'en',
          platform: '3',
          currencycode: 'SAR',
          currencysymbol: 'SAR',
        },
        body: '{}',
      });
      // an unhandled failure would be reported before the app takes the promise
      window.__masarBootToken.catch(function () {});
    }
  } catch {
    /* no fetch: the app regenerates as before */
  }
})();
