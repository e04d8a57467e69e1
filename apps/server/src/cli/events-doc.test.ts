import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_TYPES } from '@masar/shared';
import { ENGINE } from '../../test/helpers.ts';
import { openApiDocument } from './openapi.ts';
import { EVENTS_DOC, eventCatalogue } from './events-doc.ts';

// generated from the shared event contract, not from the database: checked once, in the PGlite project
describe.skipIf(ENGINE !== 'pglite')('the event catalogue', () => {
  it('docs/events.md is current (run `npm run docs:events` after changing packages/shared/src/events.ts)', () => {
    expect(eventCatalogue() === readFileSync(EVENTS_DOC, 'utf8'), 'docs/events.md is stale: npm run docs:events').toBe(true);
  });

  it('the OpenAPI document has one webhook per webhook event (not the internal contact event), its body typed by the event’s schema', async () => {
    const doc = (await openApiDocument()) as {
      openapi: string;
      webhooks: Record<
        string,
        { post: { requestBody: { content: { 'application/json': { schema: { properties: Record<string, { properties?: object }> } } } } } }
      >;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    expect(doc.webhooks).not.toHaveProperty(['contact.message_received']);
    const booked = doc.webhooks['load.booked'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(booked.properties)).toEqual(['id', 'type', 'createdAt', 'loadId', 'data']);
    expect(booked.properties.data.properties).toHaveProperty('carrierId');
    expect(booked.properties.data.properties).toHaveProperty('shipperId');
  }, 60_000);
});
