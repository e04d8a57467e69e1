import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import i18n from '../../../i18n';
import { ApiError } from '../../../lib/api';
import { renderWithApp } from '../../../test/render';
import { SaveSearchDialog } from './SaveSearchDialog';
import { describeFilters } from './describe';

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

const dialog = (props: Partial<Parameters<typeof SaveSearchDialog>[0]> = {}) => {
  const onSave = vi.fn();
  const onCancel = vi.fn();
  renderWithApp(<SaveSearchDialog opened title="Save this search" onSave={onSave} onCancel={onCancel} {...props} />);
  return { onSave, onCancel };
};

describe('save search dialog (issue 19)', () => {
  it('saves a trimmed name; an empty name cannot be saved', async () => {
    const { onSave } = dialog();
    const input = await screen.findByTestId('save-search-name');
    const submit = screen.getByTestId('save-search-submit');
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(input, { target: { value: '  Riyadh flatbeds  ' } });
    fireEvent.click(submit);
    expect(onSave).toHaveBeenCalledWith('Riyadh flatbeds');
  });

  it('refuses a name over 80 characters and starts from the given name (rename)', async () => {
    const { onSave } = dialog({ initialName: 'old name' });
    const input = await screen.findByTestId<HTMLInputElement>('save-search-name');
    expect(input.value).toBe('old name');
    fireEvent.change(input, { target: { value: 'x'.repeat(81) } });
    expect(screen.getByText('At most 80 characters.')).toBeTruthy();
    fireEvent.click(screen.getByTestId('save-search-submit'));
    expect(onSave).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal (duplicate search exists) in Arabic too', async () => {
    await i18n.changeLanguage('ar');
    const { onCancel } = dialog({ error: new ApiError(409, 'DUPLICATE_SEARCH', 'يوجد بحث محفوظ مطابق.') });
    expect((await screen.findByTestId('save-search-error')).textContent).toBe('يوجد بحث محفوظ مطابق.');
    fireEvent.click(screen.getByText('إلغاء'));
    expect(onCancel).toHaveBeenCalled();
  });
});

describe('a search in one line', () => {
  const ctx = (lang: 'en' | 'ar') => ({
    t: ((k: string, o?: Record<string, unknown>) => i18n.t(`searches:${k}`, { ...o, lng: lang })) as (k: string, o?: Record<string, unknown>) => string,
    lang,
    city: (id: number) => ({ 3: 'Riyadh', 18: 'Jeddah' })[id] ?? '?',
    equipment: (code: string) => (code === 'flatbed_trailer' ? 'Flatbed' : code),
  });
  it('names the lane, equipment, load type and capacity; nothing but the order is "No filters"', () => {
    expect(describeFilters({ pickupCityId: 3, radius: 200, dropCityId: 18, equipmentType: 'flatbed_trailer', loadType: 'FTL', sort: 'price' }, ctx('en'))).toBe(
      'Riyadh (200 km) · to Jeddah · Flatbed · FTL',
    );
    expect(describeFilters({ originCityId: 3, radius: 100, minCapacityKg: 5000 }, ctx('en'))).toBe('Riyadh (100 km) · at least 5,000 kg');
    expect(describeFilters({ sort: 'newest' }, ctx('en'))).toBe('No filters');
    expect(describeFilters({ originCityId: 3, radius: 100 }, ctx('ar'))).toBe('Riyadh (١٠٠ كم)');
  });
});
