/* global self, clients */
// The service worker of web push (issue 21; docs/notifications.md "Web push"). Kept tiny and
// plain: it shows each push the server sends (title and body in the user's language, the tag
// that lets a newer push about the same shipment replace the older) and, on a click, focuses a
// window already on that screen, else opens it. It caches nothing (no offline mode).
self.addEventListener('push', function (event) {
  var data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : '' };
  }
  var ar = data.lang === 'ar';
  event.waitUntil(
    self.registration.showNotification(data.title || (ar ? 'مسار' : 'Masar'), {
      body: data.body || '',
      icon: '/icons/icon-192.png',
      tag: data.tag,
      lang: ar ? 'ar' : 'en',
      dir: ar ? 'rtl' : 'ltr',
      data: { url: data.url || '/' },
    }),
  );
});

self.addEventListener('notificationclick', function (event) {
  event.notification.close();
  // only paths of this app: a push never sends the user elsewhere
  var target = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  if (target.origin !== self.location.origin) target = new URL('/', self.location.origin);
  event.waitUntil(
    clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (list) {
      for (var i = 0; i < list.length; i++) {
        var c = list[i];
        if (new URL(c.url).pathname === target.pathname && 'focus' in c) return c.focus();
      }
      return clients.openWindow(target.href);
    }),
  );
});
