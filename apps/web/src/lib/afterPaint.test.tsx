import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { useAfterFirstPaint } from './afterPaint';

afterEach(cleanup);

function Probe({ id }: { id: string }) {
  return <span data-testid={id}>{useAfterFirstPaint() ? 'after' : 'before'}</span>;
}

describe('useAfterFirstPaint', () => {
  it('is false on the first render, true once a frame has been painted, and true at once for later mounts', async () => {
    render(<Probe id="a" />);
    expect(screen.getByTestId('a').textContent).toBe('before');
    await act(() => new Promise((r) => setTimeout(r, 100)));
    expect(screen.getByTestId('a').textContent).toBe('after');
    render(<Probe id="b" />);
    expect(screen.getByTestId('b').textContent).toBe('after');
  });
});
