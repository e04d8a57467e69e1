import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium, openBrowser, snap, startServer, type RunningServer } from './harness';
import { apiResponse, dataOf, DEMO, signIn, useLanguage, WAIT } from './helpers';

/**
 * Issue 21 "Calls", in Arabic, two browsers with Chromium's fake camera and microphone: a carrier
 * bids on a demo shipper's load and messages the shipper; the shipper opens the conversation and
 * starts an audio call from the thread's header; the carrier's incoming-call dialog rings, the
 * carrier accepts; both call windows reach a connected RTCPeerConnection (peer to peer, no STUN on
 * one machine) and the timer moves; the carrier mutes and unmutes; the shipper hangs up and the
 * call ends on both sides. States are polled; no fixed sleeps.
 */
const MEDIA = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

describe.skipIf(!hasChromium)('audio call journey (Arabic)', () => {
  let srv: RunningServer;
  let carrierCtx: BrowserContext;
  let shipperCtx: BrowserContext;
  let carrier: Page;
  let shipper: Page;
  let load: { id: string; referenceId: string };
  const text = 'هل يمكننا التحدث عن موعد التحميل؟';

  beforeAll(async () => {
    srv = await startServer();
    [carrierCtx, shipperCtx] = await Promise.all([openBrowser({ locale: 'ar-SA', args: MEDIA }), openBrowser({ locale: 'ar-SA', args: MEDIA })]);
    await useLanguage(carrierCtx, srv.url, 'ar');
    await useLanguage(shipperCtx, srv.url, 'ar');
    carrier = carrierCtx.pages()[0] ?? (await carrierCtx.newPage());
    shipper = shipperCtx.pages()[0] ?? (await shipperCtx.newPage());
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    await snap(carrier, 'FAILED-calls-carrier').catch(() => undefined);
    await snap(shipper, 'FAILED-calls-shipper').catch(() => undefined);
  });

  afterAll(async () => {
    await carrierCtx?.close();
    await shipperCtx?.close();
    await srv?.stop();
  });

  it('the carrier bids on a posted load of the shipper and messages the shipper about it', async () => {
    await signIn(shipper, srv.url, DEMO.shipper, '/shippers/my-loads');
    const posted = apiResponse(shipper, 'GET', '/my-loads');
    await shipper.goto(`${srv.url}/shippers/my-loads?tab=posted`);
    const items = (await dataOf<{ items: { id: string; referenceId: string; status: string; offersCount: number; bookNow?: boolean }[] }>(await posted)).items;
    const free = items.find((l) => l.status === 'posted' && l.offersCount === 0 && !l.bookNow);
    expect(free, 'a posted demo load without offers').toBeTruthy();
    load = free!;

    await signIn(carrier, srv.url, DEMO.carrier, '/carriers/load-search');
    await carrier.goto(`${srv.url}/carriers/loads/${load.id}`);
    await expect.poll(() => carrier.getByTestId('load-ref').textContent(), { timeout: WAIT }).toBe(load.referenceId);
    const input = carrier.getByTestId('bid-input');
    await input.fill('');
    await input.pressSequentially('٣٨٠٠');
    const bid = apiResponse(carrier, 'POST', '/offers');
    await carrier.getByTestId('bid-submit').click();
    expect((await bid).status()).toBeLessThan(300);
    await carrier.getByTestId('message-shipper').click();
    const composer = carrier.getByTestId('chat-input');
    await composer.waitFor({ timeout: WAIT });
    const sent = apiResponse(carrier, 'POST', /\/chat\/conversations\/[^/]+\/messages$/);
    await composer.fill(text);
    await composer.press('Enter');
    expect((await sent).status()).toBe(201);
  });

  it('the shipper opens the conversation and starts an audio call; the carrier’s dialog rings', async () => {
    await shipper.getByTestId('chat-button').waitFor({ timeout: WAIT });
    await shipper.getByTestId('chat-button').click();
    const row = shipper.getByTestId('chat-conversation').filter({ hasText: load.referenceId }).first();
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    await shipper.getByTestId('chat-message').filter({ hasText: text }).waitFor({ timeout: WAIT });
    const audio = shipper.getByTestId('call-audio');
    await audio.waitFor({ timeout: WAIT });
    expect(await audio.getAttribute('aria-label')).toBe('مكالمة صوتية');
    const created = apiResponse(shipper, 'POST', '/meetings/v1/meeting');
    await audio.click();
    expect((await created).status()).toBe(201);
    const window = shipper.getByTestId('call-window');
    await window.waitFor({ timeout: WAIT });
    expect(await window.getAttribute('data-phase')).toBe('outgoing');
    expect(await shipper.getByTestId('call-status').textContent()).toBe('جارٍ الاتصال…');

    const dialog = carrier.getByTestId('call-incoming');
    await carrier.getByTestId('call-accept').waitFor({ timeout: 30_000 });
    expect(await carrier.getByRole('dialog', { name: 'مكالمة صوتية واردة' }).count()).toBe(1);
    expect((await carrier.getByTestId('call-caller').textContent())?.length).toBeGreaterThan(0);
    expect(await dialog.count()).toBeGreaterThan(0);
    await snap(carrier, 'calls-1-carrier-ringing');
  });

  it('the carrier accepts: both sides are connected peer to peer and the timer moves', async () => {
    const accepted = apiResponse(carrier, 'POST', '/meetings/v1/accept');
    await carrier.getByTestId('call-accept').click();
    expect((await accepted).status()).toBe(200);
    for (const p of [carrier, shipper])
      await expect.poll(() => p.getByTestId('call-window').getAttribute('data-peer-state'), { timeout: 30_000, interval: 250 }).toBe('connected');
    // the timer runs in Arabic-Indic digits, and moves
    const timer = shipper.getByTestId('call-timer');
    const first = (await timer.textContent()) ?? '';
    expect(first).toMatch(/^[٠-٩]{2}:[٠-٩]{2}$/);
    await expect.poll(() => timer.textContent(), { timeout: 10_000, interval: 250 }).not.toBe(first);
    await expect.poll(() => carrier.getByTestId('call-timer').textContent(), { timeout: 10_000 }).toMatch(/^[٠-٩]{2}:[٠-٩]{2}$/);
    await snap(shipper, 'calls-2-shipper-connected');
    await snap(carrier, 'calls-3-carrier-connected');
  });

  it('the carrier mutes and unmutes the microphone', async () => {
    const mute = carrier.getByTestId('call-mute');
    expect(await mute.getAttribute('aria-label')).toBe('كتم الميكروفون');
    await mute.click();
    await expect.poll(() => mute.getAttribute('data-muted')).toBe('true');
    expect(await mute.getAttribute('aria-label')).toBe('إلغاء كتم الميكروفون');
    // the track itself is off in the page
    await mute.click();
    await expect.poll(() => mute.getAttribute('data-muted')).toBe('false');
  });

  it('at 390 px the shipper minimises the call to a bar and maximises it again, both within the screen', async () => {
    await shipper.setViewportSize({ width: 390, height: 844 });
    await shipper.getByTestId('call-minimise').click();
    const bar = shipper.locator('[data-testid="call-window"][data-minimised]');
    await bar.waitFor({ timeout: WAIT });
    const box = (await bar.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    // still connected, the timer still running in the bar
    expect(await bar.getAttribute('data-peer-state')).toBe('connected');
    await bar.getByTestId('call-timer').waitFor({ timeout: WAIT });
    await snap(shipper, 'calls-4-shipper-390-minimised');
    await shipper.getByTestId('call-maximise').click();
    const full = shipper.locator('[data-testid="call-window"]:not([data-minimised])');
    await full.waitFor({ timeout: WAIT });
    const fb = (await full.boundingBox())!;
    expect(fb.x).toBeGreaterThanOrEqual(0);
    expect(fb.x + fb.width).toBeLessThanOrEqual(390);
    await snap(shipper, 'calls-5-shipper-390-maximised');
  });

  it('the shipper hangs up: the call ends on both sides', async () => {
    const left = apiResponse(shipper, 'DELETE', /\/meetings\/v1\/leave/);
    await shipper.getByTestId('call-hangup').click();
    expect((await left).status()).toBe(200);
    await shipper.getByTestId('call-window').waitFor({ state: 'detached', timeout: WAIT });
    await carrier.getByTestId('call-window').waitFor({ state: 'detached', timeout: 30_000 });
    // the call buttons are back
    await shipper.getByTestId('call-audio').waitFor({ timeout: WAIT });
    await snap(carrier, 'calls-6-carrier-ended');
  });

  it('the call left its line in both threads; the carrier calls back, the shipper declines, and the carrier’s window says so (issue 48)', async () => {
    const line = (p: Page, outcome: string) => p.locator(`[data-testid="chat-call-line"][data-outcome="${outcome}"]`);
    // the ended call: its length in Arabic-Indic digits, on both sides
    for (const p of [shipper, carrier])
      await expect.poll(() => line(p, 'ended').first().textContent(), { timeout: 30_000, interval: 250 }).toMatch(/^مكالمة صوتية · [٠-٩]{2}:[٠-٩]{2}/);

    const audio = carrier.getByTestId('call-audio');
    await audio.waitFor({ timeout: WAIT });
    const created = apiResponse(carrier, 'POST', '/meetings/v1/meeting');
    await audio.click();
    expect((await created).status()).toBe(201);
    await shipper.getByTestId('call-decline').waitFor({ timeout: 30_000 });
    const declined = apiResponse(shipper, 'DELETE', /\/meetings\/v1\/leave/);
    await shipper.getByTestId('call-decline').click();
    expect((await declined).status()).toBe(200);

    const ended = carrier.locator('[data-testid="call-window"][data-phase="ended"]');
    await ended.waitFor({ timeout: 30_000 });
    expect(await ended.getAttribute('data-reason')).toBe('declined');
    expect(await carrier.getByTestId('call-ended-message').textContent()).toMatch(/^رفض .+ المكالمة\.$/);
    await snap(carrier, 'calls-7-carrier-declined');
    await carrier.getByTestId('call-ended-close').click();
    await ended.waitFor({ state: 'detached', timeout: WAIT });
    // one line each, told from each side
    await expect.poll(() => line(carrier, 'declined').count(), { timeout: 30_000, interval: 250 }).toBe(1);
    expect(await line(carrier, 'declined').textContent()).toContain('رُفضت المكالمة الصوتية');
    await expect.poll(() => line(shipper, 'declined').count(), { timeout: 30_000, interval: 250 }).toBe(1);
    expect(await line(shipper, 'declined').textContent()).toContain('رفضتَ مكالمة صوتية');
    await snap(shipper, 'calls-8-shipper-thread-lines');
  });
});
