/**
 * Largest Contentful Paint of the home page and the carrier's load search, in headless Chromium
 * on loopback against the built app (`npm run build` first). Prints medians; asserts nothing.
 *
 *   npm run bench:lcp        # RUNS=7 LANG=en|ar (node --import tsx bench/lcp.bench.ts)
 *
 * "cold" is a fresh browser context (empty HTTP cache), "warm" the same page loaded again in it
 * (hashed assets from the cache). The target is ≤ 1.0 s cold on this kind of machine.
 */
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { CHROMIUM, startServer } from '../e2e/harness.ts';
import { DEMO, signIn } from '../e2e/helpers.ts';

const RUNS = Number(process.env.RUNS ?? 7);
const LANG = process.env.LANG === 'ar' ? 'ar' : 'en';

/** The last LCP candidate once the page is quiet (input would end LCP; there is none here). */
async function lcpOf(ctx: BrowserContext, url: string): Promise<{ lcp: number; bytes: number }> {
  const page = await ctx.newPage();
  const sizes: Promise<number>[] = [];
  // encoded body bytes, as sent (compressed when the server compresses)
  page.on('requestfinished', (req) => {
    if (req.resourceType() === 'script') sizes.push(req.sizes().then((s) => s.responseBodySize));
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  const lcp = await page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve(entries[entries.length - 1].startTime);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => resolve(-1), 5000);
      }),
  );
  const bytes = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
  await page.close();
  return { lcp, bytes };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(browser: Browser, name: string, url: string, storageState?: Awaited<ReturnType<BrowserContext['storageState']>>) {
  const cold: number[] = [];
  const warm: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState, locale: LANG === 'ar' ? 'ar-SA' : 'en-US' });
    await ctx.addCookies([{ name: 'language', value: LANG, url }]);
    const c = await lcpOf(ctx, url);
    cold.push(c.lcp);
    bytes = c.bytes;
    warm.push((await lcpOf(ctx, url)).lcp);
    await ctx.close();
  }
  console.log(
    `${name.padEnd(12)} LCP cold median ${median(cold).toFixed(0)} ms (min ${Math.min(...cold).toFixed(0)}, max ${Math.max(...cold).toFixed(0)})` +
      `  warm median ${median(warm).toFixed(0)} ms  JS on the wire ${(bytes / 1024).toFixed(0)} KB`,
  );
}

const srv = await startServer();
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const signInCtx = await browser.newContext();
  await signInCtx.addCookies([{ name: 'language', value: LANG, url: srv.url }]);
  await signIn(await signInCtx.newPage(), srv.url, DEMO.carrier, '/carriers/load-search');
  const carrier = await signInCtx.storageState();
  await signInCtx.close();

  console.log(`LCP on loopback, headless Chromium, ${RUNS} runs, language ${LANG}`);
  await measure(browser, 'home', `${srv.url}/`);
  await measure(browser, 'load search', `${srv.url}/carriers/load-search`, carrier);
} finally {
  await browser.close();
  await srv.stop();
}
