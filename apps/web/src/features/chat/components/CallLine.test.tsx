import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import type { ChatCallLine } from '@masar/shared';
import i18n, { loadNamespaces } from '../../../i18n';
import { setDigitSystem } from '../../../lib/digits';
import { renderWithApp } from '../../../test/render';
import { CallLine, callLineText } from './CallLine';

const CALL = '0193a000-0000-7000-8000-0000000000a1';
const line = (over: Partial<ChatCallLine> = {}): ChatCallLine => ({ callId: CALL, type: 'AudioCall', outcome: 'ended', durationSeconds: 135, ...over });
const AT = '2026-12-07T10:00:00.000Z';

beforeEach(async () => {
  await loadNamespaces(['chat'], 'en');
  await loadNamespaces(['chat'], 'ar');
});
afterEach(async () => {
  cleanup();
  setDigitSystem(null);
  await i18n.changeLanguage('en');
});

/** Issue 48: a call's line in the thread, in the reader's language and digits, told from the reader's side. */
describe('a call’s line in the conversation', () => {
  it('in Arabic: the length in Arabic-Indic digits (mm:ss), missed and declined from each side', async () => {
    await i18n.changeLanguage('ar');
    renderWithApp(<CallLine call={line()} mine createdAt={AT} lang="ar" />, { dir: 'rtl' });
    const el = screen.getByTestId('chat-call-line');
    expect(el.getAttribute('data-outcome')).toBe('ended');
    expect(el.textContent).toContain('مكالمة صوتية · ٠٢:١٥');
    expect(el.textContent).not.toMatch(/[0-9]/);
    const t = i18n.getFixedT('ar', 'chat');
    expect(callLineText(line({ outcome: 'missed', durationSeconds: null }), false, t, 'ar')).toBe('مكالمة صوتية فائتة');
    expect(callLineText(line({ outcome: 'missed', durationSeconds: null, type: 'VideoCall' }), true, t, 'ar')).toBe('مكالمة فيديو لم يُرَدّ عليها');
    expect(callLineText(line({ outcome: 'declined', durationSeconds: null }), false, t, 'ar')).toBe('رفضتَ مكالمة صوتية');
    expect(callLineText(line({ outcome: 'declined', durationSeconds: null }), true, t, 'ar')).toBe('رُفضت المكالمة الصوتية');
    // an hour and more: h:mm:ss
    expect(callLineText(line({ type: 'VideoCall', durationSeconds: 3725 }), false, t, 'ar')).toBe('مكالمة فيديو · ١:٠٢:٠٥');
  });

  it('in Arabic with Western digits chosen, and in English', async () => {
    await i18n.changeLanguage('ar');
    setDigitSystem('latn');
    expect(callLineText(line(), true, i18n.getFixedT('ar', 'chat'), 'ar')).toBe('مكالمة صوتية · 02:15');
    setDigitSystem(null);
    await i18n.changeLanguage('en');
    renderWithApp(<CallLine call={line({ type: 'VideoCall', durationSeconds: 65 })} mine={false} createdAt={AT} lang="en" />);
    expect(screen.getByTestId('chat-call-line').textContent).toContain('Video call · 01:05');
    const t = i18n.getFixedT('en', 'chat');
    expect(callLineText(line({ outcome: 'missed', durationSeconds: null }), false, t, 'en')).toBe('Missed audio call');
    expect(callLineText(line({ outcome: 'missed', durationSeconds: null }), true, t, 'en')).toBe('Audio call, no answer');
    expect(callLineText(line({ outcome: 'declined', durationSeconds: null }), true, t, 'en')).toBe('Audio call declined');
    expect(callLineText(line({ outcome: 'declined', durationSeconds: null }), false, t, 'en')).toBe('You declined an audio call');
  });
});
