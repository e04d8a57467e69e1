import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_TYPE, type CreateTruckBody } from '@masar/shared';
import { createTestApp, type TestContext } from './helpers.ts';
import { createUser, type TestUser } from './fixtures.ts';
import { inDays } from '../src/modules/loads/loads.testkit.ts';

/**
 * Truck posting under concurrency (issue 19). A truck post has no cap per account and no
 * uniqueness but its reference, so what must hold in a race: one Idempotency-Key makes one truck
 * (the others replay it or hear 409 in progress); 40 distinct posts make 40 trucks with 40
 * references and 40 truck.posted events; 40 racing lifecycle actions on one truck apply one at
 * a time (every event's `status.from` is the previous `to`) and leave the side tables right.
 * On PostgreSQL the requests run in parallel on the pool; PGlite runs them on its one connection.
 */
const RACE = 40;
let t: TestContext;
let carrier: TestUser;
beforeAll(async () => {
  t = await createTestApp({ JOBS: false });
  carrier = await createUser(t, { accountType: ACCOUNT_TYPE.carrier });
});
afterAll(() => t?.close());

const body = (): CreateTruckBody => ({
  loadType: 'FTL',
  equipmentType: 'flatbed_trailer',
  availableFrom: inDays(1),
  availableTo: inDays(3),
  originCityId: 1,
  anywhere: false,
  destinationCityIds: [70],
  minRateSar: '2500',
  rateBasis: 'trip',
  capacityKg: 25_000,
});
const req = (method: 'POST' | 'DELETE', url: string, payload?: object, key?: string) =>
  t.app.inject({ method, url: `/api/v1${url}`, headers: { ...carrier.headers, ...(key ? { 'idempotency-key': key } : {}) }, payload });
const mine = async () => (await t.database.query<{ n: number }>('select count(*)::int as n from trucks where owner_id = $1', [carrier.id]))[0].n;

describe(`${RACE} racing truck posts`, () => {
  it('one Idempotency-Key: one truck (one 201 or replays of it; the rest 409 in progress)', async () => {
    const before = await mine();
    const b = body();
    const rs = await Promise.all(Array.from({ length: RACE }, () => req('POST', '/truck', b, 'truck-race-1')));
    const codes = rs.map((r) => r.statusCode);
    expect(codes.every((c) => c === 201 || c === 409)).toBe(true);
    expect(new Set(rs.filter((r) => r.statusCode === 201).map((r) => r.json().data.id)).size).toBe(1);
    expect(await mine()).toBe(before + 1);
  });

  it('distinct posts: every one made, references unique, one truck.posted each', async () => {
    const rs = await Promise.all(Array.from({ length: RACE }, (_, i) => req('POST', '/truck', body(), `truck-race-many-${i}`)));
    expect(rs.map((r) => r.statusCode)).toEqual(Array(RACE).fill(201));
    const ids = rs.map((r) => r.json().data.id as string);
    const refs = await t.database.query<{ reference_id: string }>('select reference_id from trucks where id = any($1::uuid[])', [ids]);
    expect(new Set(refs.map((r) => r.reference_id)).size).toBe(RACE);
    const [{ n }] = await t.database.query<{ n: number }>(
      `select count(*)::int as n from outbox_events where type = 'truck.posted' and data->>'truckId' = any($1::text[])`,
      [ids],
    );
    expect(n).toBe(RACE);
  });

  it('racing unpost / repost / delete on one truck apply one at a time', async () => {
    const truck = (await req('POST', '/truck', body(), 'truck-race-life')).json().data;
    const actions = Array.from({ length: RACE }, (_, i) => (i === RACE - 1 ? 'delete' : i % 2 ? 'repost' : 'unpost'));
    const rs = await Promise.all(actions.map((a) => (a === 'delete' ? req('DELETE', `/truck/${truck.id}`) : req('POST', `/truck/${truck.id}/${a}`))));
    // each answer is a success or a clean refusal, never a 500
    expect(rs.every((r) => r.statusCode < 500)).toBe(true);
    const events = await t.database.query<{ type: string; status: { from: string; to: string } }>(
      `select type, data->'status' as status from outbox_events where data->>'truckId' = $1 and type <> 'truck.created' order by seq`,
      [truck.id],
    );
    // a chain: each transition starts where the previous one ended
    for (let i = 1; i < events.length; i++) expect(events[i].status.from, JSON.stringify(events)).toBe(events[i - 1].status.to);
    const [row] = await t.database.query<{ status: string }>('select status from trucks where id = $1', [truck.id]);
    expect(row.status).toBe(events[events.length - 1].status.to);
    // the arrivals follow the final state
    const dests = await t.database.query('select 1 from truck_destinations where truck_id = $1', [truck.id]);
    expect(dests.length).toBe(row.status === 'posted' ? 1 : 0);
  });
});
