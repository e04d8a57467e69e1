import { describe, expect, it } from 'vitest';
import { isolate } from './bidi';

describe('isolate (user text inside a sentence of the other direction)', () => {
  it('wraps the text in first-strong-isolate and pop-directional-isolate marks', () => {
    const s = isolate('Qahtani Transport Co.');
    expect(s.startsWith('\u2068')).toBe(true);
    expect(s.endsWith('\u2069')).toBe(true);
    expect(s.slice(1, -1)).toBe('Qahtani Transport Co.');
  });
});
