import type { FastifyInstance } from 'fastify';

/** Routes of the offers module (to be built). */
export default async function offersRoutes(_app: FastifyInstance) {}
