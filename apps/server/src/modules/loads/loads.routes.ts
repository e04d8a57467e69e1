import type { FastifyInstance } from 'fastify';

/** Routes of the loads module (to be built). */
export default async function loadsRoutes(_app: FastifyInstance) {}
