import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hasChromium, openBrowser, snap, startServer, type RunningServer } from './harness';
import { apiResponse, dataOf, DEMO, signIn, useLanguage, WAIT } from './helpers';

/**
 * Issue 21 "Chat", in Arabic: a carrier bids on a demo shipper's load and messages the shipper
 * from the load's page; the shipper (a second browser) sees the header's chat count go up live
 * (MQTT over WebSocket, no reload), opens the conversation and reads the message; the carrier's
 * tick turns to "read" live. While the shipper types a reply, the carrier sees "… is typing"
 * (the conversation's MQTT typing topic), and it goes when the reply is sent; a photo the carrier
 * attaches shows as a thumbnail in the shipper's thread (uploaded through POST /files, read back
 * with the session as a blob). The shipper's thread says the carrier is online («متصل الآن») while
 * its tab is open, and when it was last seen («آخر ظهور …») once it is closed (presence topic).
 */
describe.skipIf(!hasChromium)('chat journey (Arabic)', () => {
  let srv: RunningServer;
  let carrierCtx: BrowserContext;
  let shipperCtx: BrowserContext;
  let carrier: Page;
  let shipper: Page;
  let load: { id: string; referenceId: string };
  let before = 0;
  const text = 'السلام عليكم، الشاحنة جاهزة للتحميل غداً';

  const chatCount = async () => Number((await shipper.getByTestId('chat-count').getAttribute('data-count')) ?? '0');

  beforeAll(async () => {
    srv = await startServer();
    [carrierCtx, shipperCtx] = await Promise.all([openBrowser({ locale: 'ar-SA' }), openBrowser({ locale: 'ar-SA' })]);
    await useLanguage(carrierCtx, srv.url, 'ar');
    await useLanguage(shipperCtx, srv.url, 'ar');
    carrier = carrierCtx.pages()[0] ?? (await carrierCtx.newPage());
    shipper = shipperCtx.pages()[0] ?? (await shipperCtx.newPage());
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state !== 'fail') return;
    await snap(carrier, 'FAILED-chat-carrier').catch(() => undefined);
    await snap(shipper, 'FAILED-chat-shipper').catch(() => undefined);
  });

  afterAll(async () => {
    await carrierCtx?.close();
    await shipperCtx?.close();
    await srv?.stop();
  });

  it('the shipper is signed in with the chat button in the header; one of its posted loads has no offer yet', async () => {
    await signIn(shipper, srv.url, DEMO.shipper, '/shippers/my-loads');
    const posted = apiResponse(shipper, 'GET', '/my-loads');
    await shipper.goto(`${srv.url}/shippers/my-loads?tab=posted`);
    const items = (await dataOf<{ items: { id: string; referenceId: string; status: string; offersCount: number; bookNow?: boolean }[] }>(await posted)).items;
    const free = items.find((l) => l.status === 'posted' && l.offersCount === 0 && !l.bookNow);
    expect(free, 'a posted demo load without offers').toBeTruthy();
    load = free!;
    await shipper.getByTestId('chat-button').waitFor({ timeout: WAIT });
    before = await chatCount();
  });

  it('a carrier bids on that load and messages the shipper from its page', async () => {
    await signIn(carrier, srv.url, DEMO.carrier, '/carriers/load-search');
    await carrier.goto(`${srv.url}/carriers/loads/${load.id}`);
    await expect.poll(() => carrier.getByTestId('load-ref').textContent(), { timeout: WAIT }).toBe(load.referenceId);
    const input = carrier.getByTestId('bid-input');
    await input.fill('');
    await input.pressSequentially('٣٩٠٠');
    const bid = apiResponse(carrier, 'POST', '/offers');
    await carrier.getByTestId('bid-submit').click();
    expect((await bid).status()).toBeLessThan(300);

    const button = carrier.getByTestId('message-shipper');
    expect(await button.textContent()).toContain('راسل الشاحن');
    await button.click();
    const composer = carrier.getByTestId('chat-input');
    await composer.waitFor({ timeout: WAIT });
    const sent = apiResponse(carrier, 'POST', /\/chat\/conversations\/[^/]+\/messages$/);
    await composer.fill(text);
    await composer.press('Enter');
    expect((await sent).status()).toBe(201);
    const mine = carrier.getByTestId('chat-message').filter({ hasText: text });
    await mine.waitFor({ timeout: WAIT });
    expect(await mine.getByTestId('chat-tick-sent').count()).toBe(1);
    await snap(carrier, 'chat-1-carrier-sent');
  });

  it('the shipper’s count goes up live; the shipper opens the conversation and reads it', async () => {
    await expect.poll(chatCount, { timeout: 30_000, interval: 250 }).toBeGreaterThan(before);
    await shipper.getByTestId('chat-button').click();
    const row = shipper.getByTestId('chat-conversation').filter({ hasText: load.referenceId }).first();
    await row.waitFor({ timeout: WAIT });
    // the unread badge in Arabic-Indic digits
    expect(await row.getByTestId('chat-unread').textContent()).toBe('١');
    await snap(shipper, 'chat-2-shipper-list');
    await row.click();
    await shipper.getByTestId('chat-message').filter({ hasText: text }).waitFor({ timeout: WAIT });
    // the carrier's tab is connected: its side is online (the conversation's presence topic)
    await shipper.getByTestId('chat-presence').filter({ hasText: 'متصل الآن' }).waitFor({ timeout: 30_000 });
    await snap(shipper, 'chat-3-shipper-thread');
  });

  it('the carrier’s tick turns to read, live', async () => {
    await carrier.getByTestId('chat-message').filter({ hasText: text }).getByTestId('chat-tick-read').waitFor({ timeout: 30_000 });
    await snap(carrier, 'chat-4-carrier-read');
  });

  it('while the shipper types a reply the carrier sees "… is typing"; it goes when the reply is sent', async () => {
    const reply = 'أهلاً، نبدأ التحميل الساعة ٨ صباحاً';
    const typing = carrier.getByTestId('chat-typing');
    const seen = typing.waitFor({ timeout: 30_000 });
    const composer = shipper.getByTestId('chat-input');
    await composer.pressSequentially(reply, { delay: 60 });
    await seen;
    expect(await typing.textContent()).toContain('يكتب');
    await snap(carrier, 'chat-5-carrier-sees-typing');
    await composer.press('Enter');
    await carrier.getByTestId('chat-message').filter({ hasText: reply }).waitFor({ timeout: 30_000 });
    await typing.waitFor({ state: 'detached', timeout: 30_000 });
  });

  it('the carrier attaches a photo; the shipper sees its thumbnail', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const uploaded = apiResponse(carrier, 'POST', '/files');
    await carrier.locator('input[type=file]').setInputFiles({ name: 'loading-bay.png', mimeType: 'image/png', buffer: png });
    expect((await uploaded).status()).toBe(201);
    await carrier.getByTestId('chat-attachment-chip').filter({ hasText: 'loading-bay.png' }).waitFor({ timeout: WAIT });
    const sent = apiResponse(carrier, 'POST', /\/chat\/conversations\/[^/]+\/messages$/);
    await carrier.getByTestId('chat-send').click();
    expect((await sent).status()).toBe(201);
    await shipper.getByTestId('chat-attachment-image').waitFor({ timeout: 30_000 });
    await snap(shipper, 'chat-6-shipper-attachment');
  });

  it('the carrier closes its tab: the shipper sees when it was last seen, live', async () => {
    await carrier.close();
    const line = shipper.getByTestId('chat-presence').filter({ hasText: 'آخر ظهور' });
    await line.waitFor({ timeout: 30_000 });
    // "منذ ثانية واحدة" or "منذ ٥ ثوان"…: Arabic words, never Western digits
    expect(await line.textContent()).toMatch(/^آخر ظهور منذ [^0-9]+$/);
    await snap(shipper, 'chat-7-shipper-last-seen');
  });
});
