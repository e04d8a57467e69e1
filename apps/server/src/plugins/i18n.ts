import fp from 'fastify-plugin';
import { defaultDigitSystem, digitSystemOfTag, type DigitSystem, type Language } from '@masar/shared';

declare module 'fastify' {
  interface FastifyRequest {
    /** Language of the answer: the `language` header (en|ar), else Accept-Language, else en. */
    lang: Language;
    /**
     * Digit system of the numbers in the answer's messages (issue 9): the `-u-nu-` extension of
     * the `language` header or of Accept-Language's first tag (`ar-u-nu-latn`, `en-u-nu-arab`),
     * else the language's own (ar → arab, en → latn).
     */
    digits: DigitSystem;
  }
}

export function pickLanguage(header: unknown, acceptLanguage: unknown): Language {
  const h = typeof header === 'string' ? header.toLowerCase() : '';
  if (h.startsWith('ar')) return 'ar';
  if (h.startsWith('en')) return 'en';
  return typeof acceptLanguage === 'string' && acceptLanguage.toLowerCase().startsWith('ar') ? 'ar' : 'en';
}

export function pickDigitSystem(header: unknown, acceptLanguage: unknown, lang: Language): DigitSystem {
  const first = typeof acceptLanguage === 'string' ? acceptLanguage.split(',')[0] : undefined;
  return digitSystemOfTag(header) ?? digitSystemOfTag(first) ?? defaultDigitSystem(lang);
}

export default fp(async (app) => {
  app.decorateRequest('lang', 'en');
  app.decorateRequest('digits', 'latn');
  app.addHook('onRequest', async (req) => {
    req.lang = pickLanguage(req.headers['language'], req.headers['accept-language']);
    req.digits = pickDigitSystem(req.headers['language'], req.headers['accept-language'], req.lang);
  });
});
