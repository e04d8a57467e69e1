import { describe, expect, it } from 'vitest';
import { decodeResult, encodeResult } from './tx-journal.ts';

/** The journal a crashed request's transactions leave on its Idempotency-Key (issue 22). */
describe('transaction journal encoding', () => {
  it('round-trips what transactions return: ids, Dates, undefined, bigint, nested objects', () => {
    const value = { id: '01a2', at: new Date('2026-11-26T04:00:00.000Z'), list: [1, 'x', null], big: 12n, nested: { when: new Date(0) } };
    expect(decodeResult(JSON.parse(encodeResult(value)))).toEqual(value);
    expect(decodeResult(JSON.parse(encodeResult(undefined)))).toBeUndefined();
    expect(decodeResult(JSON.parse(encodeResult('01a2')))).toBe('01a2');
  });

  it('records a result that is not JSON as opaque, and refuses to replay it', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const encoded = encodeResult(cyclic);
    expect(JSON.parse(encoded)).toEqual({ $opaque: true });
    expect(() => decodeResult(JSON.parse(encoded))).toThrow();
  });
});
