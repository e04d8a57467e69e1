import fp from 'fastify-plugin';
import type { Language } from '@masar/shared';

declare module 'fastify' {
  interface FastifyRequest {
    /** Language of the answer: the `language` header (en|ar), else Accept-Language, else en. */
    lang: Language;
  }
}

export function pickLanguage(header: unknown, acceptLanguage: unknown): Language {
  const h = typeof header === 'string' ? header.toLowerCase() : '';
  if (h.startsWith('ar')) return 'ar';
  if (h.startsWith('en')) return 'en';
  return typeof acceptLanguage === 'string' && acceptLanguage.toLowerCase().startsWith('ar') ? 'ar' : 'en';
}

export default fp(async (app) => {
  app.decorateRequest('lang', 'en');
  app.addHook('onRequest', async (req) => {
    req.lang = pickLanguage(req.headers['language'], req.headers['accept-language']);
  });
});
