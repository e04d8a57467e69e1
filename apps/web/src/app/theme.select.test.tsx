import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider, Select } from '@mantine/core';
import i18n from '../i18n';
import { localizedTheme } from './theme';

afterEach(cleanup);

describe('theme: closed selects (issue 23, the first render of the board)', () => {
  const renderSelect = () =>
    render(
      <MantineProvider theme={localizedTheme(i18n.t)}>
        <Select label="Radius" data={['50 km', '100 km', '200 km']} defaultValue="100 km" />
      </MantineProvider>,
    );

  it('render no option list while closed, and nothing refers to one', () => {
    renderSelect();
    expect(document.querySelectorAll('[role=option]')).toHaveLength(0);
    expect(document.querySelector('[role=listbox]')).toBeNull();
    expect(screen.getByLabelText('Radius').getAttribute('aria-controls')).toBeNull();
  });

  it('show the options when opened, the chosen one selected, and take a choice', async () => {
    renderSelect();
    const input = screen.getByLabelText('Radius');
    fireEvent.click(input);
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['50 km', '100 km', '200 km']);
    expect(options.map((o) => o.getAttribute('aria-selected'))).toEqual(['false', 'true', 'false']);
    fireEvent.click(options[2]);
    expect((input as HTMLInputElement).value).toBe('200 km');
  });
});
