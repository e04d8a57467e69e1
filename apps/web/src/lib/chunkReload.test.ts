import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_KEY, CHUNK_RELOAD_WINDOW_MS, reloadOnceOnStaleChunk } from './chunkReload';

/** Issue 22: a chunk removed by a deploy reloads the page once, on the same URL, never in a loop. */
describe('reloadOnceOnStaleChunk', () => {
  let clock = 1_000_000;
  let reload: ReturnType<typeof vi.fn<() => void>>;
  let stop: () => void;
  const target = () => ({
    addEventListener: window.addEventListener.bind(window),
    removeEventListener: window.removeEventListener.bind(window),
    sessionStorage: window.sessionStorage,
    location: { reload },
  });
  const preloadError = () => {
    const event = new Event('vite:preloadError', { cancelable: true });
    window.dispatchEvent(event);
    return event;
  };

  beforeEach(() => {
    sessionStorage.clear();
    reload = vi.fn<() => void>();
    stop = reloadOnceOnStaleChunk(target(), () => clock);
  });
  afterEach(() => stop());

  it('reloads on the first failed chunk and keeps the failed import from being thrown', () => {
    const event = preloadError();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(event.defaultPrevented).toBe(true);
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe(String(clock));
  });

  it('does not reload again right after a reload (the page after it fails too): the error is thrown', () => {
    preloadError();
    // the reloaded page: a new listener, the same tab's sessionStorage
    stop();
    stop = reloadOnceOnStaleChunk(target(), () => clock);
    clock += 5_000;
    const again = preloadError();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(again.defaultPrevented).toBe(false);
  });

  it('reloads again for a later deploy, once the window has passed', () => {
    preloadError();
    clock += CHUNK_RELOAD_WINDOW_MS;
    preloadError();
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('never reloads when sessionStorage cannot be written (no guard, so no loop)', () => {
    stop();
    const blocked = {
      ...target(),
      sessionStorage: {
        getItem: () => null,
        setItem: () => {
          throw new Error('SecurityError');
        },
      },
    };
    stop = reloadOnceOnStaleChunk(blocked, () => clock);
    expect(preloadError().defaultPrevented).toBe(false);
    expect(reload).not.toHaveBeenCalled();
  });

  it('stops listening when removed', () => {
    stop();
    preloadError();
    expect(reload).not.toHaveBeenCalled();
  });
});
