import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { HoverTooltip } from './HoverTooltip';

afterEach(cleanup);

describe('HoverTooltip', () => {
  it('mounts no tooltip until its target is hovered, then shows it; the target’s own handler still runs', async () => {
    const own = vi.fn();
    render(
      <MantineProvider>
        <HoverTooltip label="Verified shipper">
          <button type="button" onMouseEnter={own}>
            badge
          </button>
        </HoverTooltip>
      </MantineProvider>,
    );
    expect(screen.queryByRole('tooltip')).toBeNull();
    fireEvent.mouseEnter(screen.getByRole('button', { name: 'badge' }));
    expect(own).toHaveBeenCalledTimes(1);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Verified shipper');
  });

  it('also opens on keyboard focus', async () => {
    render(
      <MantineProvider>
        <HoverTooltip label="Verified shipper">
          <button type="button">badge</button>
        </HoverTooltip>
      </MantineProvider>,
    );
    fireEvent.focus(screen.getByRole('button', { name: 'badge' }));
    expect((await screen.findByRole('tooltip')).textContent).toBe('Verified shipper');
  });
});
