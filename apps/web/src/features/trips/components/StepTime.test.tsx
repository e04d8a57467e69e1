import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import i18n, { loadNamespaces } from '../../../i18n';
import { renderWithApp } from '../../../test/render';
import { StepTime, arrivedLate } from './StepTime';

afterEach(async () => {
  cleanup();
  await i18n.changeLanguage('en');
});

// 11:05Z and 13:40Z are 14:05 and 16:40 in Riyadh
const RECORDED = '2026-12-07T11:05:00Z';
const RECEIVED = '2026-12-07T13:40:00Z';

async function show(lang: 'en' | 'ar', at: string, recordedAt: string | null) {
  await i18n.changeLanguage(lang);
  await loadNamespaces(['trips'], lang);
  renderWithApp(<StepTime at={at} recordedAt={recordedAt} lang={lang} />, { dir: lang === 'ar' ? 'rtl' : 'ltr' });
  return screen.getByTestId('step-time');
}

describe("a trip step's time on the shipper's and carrier's timeline (issue 49)", () => {
  it('marks a step recorded offline and received later with both times, in English', async () => {
    const el = await show('en', RECEIVED, RECORDED);
    expect(el.getAttribute('data-late')).toBe('true');
    // the step's time is the device's
    expect(el.textContent).toContain('7 Dec 2026, 14:05');
    expect(screen.getByTestId('step-late').textContent).toBe('Recorded 14:05 offline, received 16:40');
  });

  it('says it in Arabic with Arabic-Indic digits', async () => {
    await show('ar', RECEIVED, RECORDED);
    expect(screen.getByTestId('step-late').textContent).toBe('سُجّلت ١٤:٠٥ دون اتصال، ووصلت ١٦:٤٠');
  });

  it('names the day of a late arrival received on another day', async () => {
    await show('en', '2026-12-08T06:10:00Z', RECORDED);
    expect(screen.getByTestId('step-late').textContent).toBe('Recorded 14:05 offline, received 8 Dec, 09:10');
  });

  it('shows no mark when device and server time are within a couple of minutes, or the device sent none', async () => {
    const close = await show('en', '2026-12-07T11:06:30Z', RECORDED);
    expect(close.getAttribute('data-late')).toBeNull();
    expect(screen.queryByTestId('step-late')).toBeNull();
    cleanup();
    const serverOnly = await show('en', RECEIVED, null);
    expect(serverOnly.textContent).toContain('16:40');
    expect(screen.queryByTestId('step-late')).toBeNull();
    expect(arrivedLate({ at: '2026-12-07T11:07:01Z', recordedAt: RECORDED })).toBe(true);
    expect(arrivedLate({ at: '2026-12-07T11:07:00Z', recordedAt: RECORDED })).toBe(false);
  });
});
