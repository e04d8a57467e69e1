import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI document generated from the shared zod schemas; UI at /api/docs, JSON at /api/docs/json. */
export default fp(async (app) => {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Masar API',
        version: '1.0.0',
        description:
          'Freight load-board marketplace for Saudi Arabia. Envelope `{message, data}`; errors `{message, code, errors?}` with `message` in the language of the `language` header (en|ar). Money SAR, distance km, weight kg, dimensions cm, times ISO 8601 (UTC).',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
});
