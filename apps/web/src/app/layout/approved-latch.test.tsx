import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, renderHook } from '@testing-library/react';
import { useApprovedLatch } from './AppLayout';

afterEach(cleanup);

describe('the approved dialog stays until read (spec §4, issue 48)', () => {
  it('stays true after a later profile answer says false (the real-time resync re-reads the profile)', () => {
    const { result, rerender } = renderHook(({ reported }: { reported: boolean | undefined }) => useApprovedLatch(reported), {
      initialProps: { reported: undefined as boolean | undefined },
    });
    expect(result.current).toBe(false);
    rerender({ reported: true });
    expect(result.current).toBe(true);
    rerender({ reported: false });
    expect(result.current).toBe(true);
  });

  it('is false while no answer has reported the approval', () => {
    const { result, rerender } = renderHook(({ reported }: { reported: boolean | undefined }) => useApprovedLatch(reported), {
      initialProps: { reported: false as boolean | undefined },
    });
    rerender({ reported: false });
    expect(result.current).toBe(false);
  });
});
