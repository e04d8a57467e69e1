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
// jsdom's scrollTo only logs "not implemented".
window.scrollTo = () => undefined;

// Strings of both languages are loaded before any test renders (the app fetches one on demand).
const { default: i18n, loadLanguage, loadNamespaces, PAGE_NAMESPACES } = await import('../i18n');
export {};
await Promise.all([loadLanguage('en'), loadLanguage('ar'), loadNamespaces(PAGE_NAMESPACES, 'en'), loadNamespaces(PAGE_NAMESPACES, 'ar')]);
await i18n.changeLanguage('en');
