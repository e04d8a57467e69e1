import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { pickDigitSystem, pickLanguage } from '../src/plugins/i18n.ts';
import { localizeIssue, zodIssuesToErrors } from '../src/plugins/errors.ts';
import { createTestApp, type TestContext } from './helpers.ts';

/**
 * Issue 9: the numbers of the server's messages (limits, sizes in the error catalogue, the
 * validation messages, zod's own texts) follow the reader's digit system, sent as the BCP 47
 * extension `-u-nu-arab` / `-u-nu-latn` of the `language` header or Accept-Language; without
 * one the language decides (ar → Arabic-Indic, en → Western). Codes stay as they are.
 */
describe('the digit system of a request', () => {
  const pick = (language: string | undefined, accept?: string) => pickDigitSystem(language, accept, pickLanguage(language, accept));
  it('defaults by language and honours a -u-nu- extension in either header', () => {
    expect(pick('ar')).toBe('arab');
    expect(pick('en')).toBe('latn');
    expect(pick(undefined)).toBe('latn');
    expect(pick('ar-u-nu-latn')).toBe('latn');
    expect(pick('en-u-nu-arab')).toBe('arab');
    expect(pick('ar', 'ar-u-nu-latn')).toBe('latn');
    expect(pick('en', 'en-SA-u-ca-gregory-nu-arab,en;q=0.8')).toBe('arab');
    expect(pick(undefined, 'ar-SA,en;q=0.5')).toBe('arab');
    // only the first (preferred) Accept-Language tag counts; another numbering system is ignored
    expect(pick('en', 'en,ar-u-nu-arab;q=0.5')).toBe('latn');
    expect(pick('ar-u-nu-thai')).toBe('arab');
    // the language itself is still read from the tag
    expect(pickLanguage('ar-u-nu-latn', undefined)).toBe('ar');
    expect(pickLanguage('en-u-nu-arab', undefined)).toBe('en');
  });
});

describe('zod and catalogue messages in each digit system', () => {
  const tooBig = z.string().max(120).safeParse('x'.repeat(130)).error!;
  it('zod’s Arabic text writes its limit in the reader’s digits', () => {
    expect(zodIssuesToErrors(tooBig, 'ar', 'arab')[0].message).toContain('١٢٠');
    expect(zodIssuesToErrors(tooBig, 'ar', 'arab')[0].message).not.toMatch(/[0-9]/);
    expect(zodIssuesToErrors(tooBig, 'ar', 'latn')[0].message).toContain('120');
    expect(zodIssuesToErrors(tooBig, 'ar')[0].message).toContain('١٢٠');
  });
  it('zod’s English text is rewritten only for a reader of Arabic-Indic digits; a custom message is kept', () => {
    expect(zodIssuesToErrors(tooBig, 'en', 'latn')[0].message).toBe(tooBig.issues[0].message);
    expect(zodIssuesToErrors(tooBig, 'en', 'arab')[0].message).toContain('١٢٠');
    expect(localizeIssue({ message: 'Pick 1 of 3', code: 'custom' }, 'en', 'arab')).toBe('Pick 1 of 3');
  });
  it('validation keys: numbers follow the setting, identifier digits stay Western', () => {
    expect(localizeIssue({ message: 'v.trailerCapacity' }, 'ar', 'arab')).toBe('يجب أن تكون الحمولة بين ١٬٠٠٠ و٥٠٬٠٠٠ كجم.');
    expect(localizeIssue({ message: 'v.trailerCapacity' }, 'ar', 'latn')).toBe('يجب أن تكون الحمولة بين 1,000 و50,000 كجم.');
    expect(localizeIssue({ message: 'v.trailerCapacity' }, 'en', 'latn')).toBe('Capacity must be between 1,000 and 50,000 kg.');
    expect(localizeIssue({ message: 'v.trailerCapacity' }, 'en', 'arab')).toBe('Capacity must be between ١٬٠٠٠ and ٥٠٬٠٠٠ kg.');
    expect(localizeIssue({ message: 'v.vatNumber' }, 'ar', 'arab')).toBe('الرقم الضريبي ١٥ رقماً ويبدأ بـ 3.');
  });
});

describe('over HTTP', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const contact = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/v1/contact', headers: { 'content-type': 'application/json', ...headers }, payload });
  const tooShort = { name: 'Sara', email: 'sara@example.com', topic: 'other', message: 'short' };
  const fieldMessage = (body: string) =>
    (JSON.parse(body) as { errors: { path: string; message: string }[] }).errors.find((e) => e.path === 'message')?.message;

  it('field errors: Arabic in Arabic-Indic digits by default, Western when asked, and the reverse in English', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ language: 'ar' }, 'اكتب رسالة من ١٠ إلى ٢٬٠٠٠ حرف.'],
      [{ language: 'ar', 'accept-language': 'ar-u-nu-latn' }, 'اكتب رسالة من 10 إلى 2,000 حرف.'],
      [{ language: 'ar-u-nu-latn' }, 'اكتب رسالة من 10 إلى 2,000 حرف.'],
      [{ language: 'en' }, 'Write a message of 10 to 2,000 characters.'],
      [{ language: 'en', 'accept-language': 'en-u-nu-arab' }, 'Write a message of ١٠ to ٢٬٠٠٠ characters.'],
    ];
    for (const [headers, text] of cases) {
      const res = await contact(headers, tooShort);
      expect(res.statusCode).toBe(400);
      expect(fieldMessage(res.body), JSON.stringify(headers)).toBe(text);
    }
  });

  it('catalogue errors: the numbers of the message follow the setting', async () => {
    const valid = { ...tooShort, message: 'A message long enough to send.' };
    const badKey = { 'idempotency-key': 'k'.repeat(300) };
    const message = async (headers: Record<string, string>) => {
      const res = await contact({ ...badKey, ...headers }, valid);
      expect(res.statusCode).toBe(400);
      const body = JSON.parse(res.body) as { code: string; message: string };
      expect(body.code).toBe('INVALID_IDEMPOTENCY_KEY');
      return body.message;
    };
    expect(await message({ language: 'ar' })).toBe('يجب أن يتكون ترويسة مفتاح عدم التكرار من ١ إلى ٢٥٥ رمزاً مرئياً.');
    expect(await message({ language: 'ar', 'accept-language': 'ar-u-nu-latn' })).toBe('يجب أن يتكون ترويسة مفتاح عدم التكرار من 1 إلى 255 رمزاً مرئياً.');
    expect(await message({ language: 'en' })).toBe('The Idempotency-Key header must be 1 to 255 visible characters.');
    expect(await message({ language: 'en-u-nu-arab' })).toBe('The Idempotency-Key header must be ١ to ٢٥٥ visible characters.');
  });
});
