/* global document */
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
})();
