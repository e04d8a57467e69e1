import type { FastifyInstance } from 'fastify';

/** Routes of the auth module (to be built). */
export default async function authRoutes(_app: FastifyInstance) {}
