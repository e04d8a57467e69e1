import { vi } from 'vitest';
// Runs before every web test file (vitest project `web`): browser APIs jsdom lacks and Mantine uses.
/** jsdom lacks browser APIs Mantine uses. */
function polyfillBrowser() {
  if (typeof window.matchMedia !== 'function') {
    const matchMedia = (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener() {},
      removeListener() {},
      addEventListener() {},
      removeEventListener() {},
      dispatchEvent: () => false,
    });
    Object.defineProperty(window, 'matchMedia', { value: matchMedia, configurable: true });
  }
  if (!('fonts' in document))
    Object.defineProperty(document, 'fonts', {
      value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() },
      configurable: true,
    });
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
  if (typeof Element.prototype.scrollIntoView !== 'function')
    Object.defineProperty(Element.prototype, 'scrollIntoView', { value: () => {}, configurable: true });
}

polyfillBrowser();

/**
 * What one file leaves behind is not the next file's starting point: a worker may run several
 * files in one module graph and one window. Storage and cookies (the session, the language, the
 * theme), stubbed globals (fetch), spies and fake timers are reset before each file.
 */
function resetBrowserState() {
  localStorage.clear();
  sessionStorage.clear();
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
  document.documentElement.removeAttribute('lang');
  document.documentElement.removeAttribute('dir');
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
}
resetBrowserState();
// a file that does not call cleanup() after its tests leaves its trees mounted (queries, timers,
// listeners, labelled inputs a getAllByLabelText()[0] would find first): unmount them
const { cleanup } = await import('@testing-library/react');
cleanup();
// Mantine's notification store lives in the package: toasts (and the queue past the limit) left
// by the last file would hide this file's toasts
const { notifications } = await import('@mantine/notifications');
notifications.clean();
// the app's own modules (src/**) start fresh in every file, as in an isolated run: module state
// (the session's token manager, the real-time client, first-paint, caches) and a file's vi.mock
// never reach the next file. Packages (React, Mantine, i18next, Testing Library) stay loaded: that
// is where the time of an isolated run went (issue 51).
vi.resetModules();
// jsdom's scrollTo only logs "not implemented".
window.scrollTo = () => undefined;

// findBy… and waitFor give up after 1 s by default: on a loaded 2-core CI machine a page's first
// render with its queries can take longer (a chat panel test missed its header count so). A wait
// ends as soon as what it looks for is there, so a longer bound costs nothing when all is well.
const { configure } = await import('@testing-library/react');
configure({ asyncUtilTimeout: 5000 });

// Strings of both languages are loaded before any test renders (the app fetches one on demand).
const { default: i18n, loadLanguage, loadNamespaces, PAGE_NAMESPACES } = await import('../i18n');
export {};
await Promise.all([loadLanguage('en'), loadLanguage('ar'), loadNamespaces(PAGE_NAMESPACES, 'en'), loadNamespaces(PAGE_NAMESPACES, 'ar')]);
await i18n.changeLanguage('en');
