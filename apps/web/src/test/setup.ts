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
