import type { FastifyInstance } from 'fastify';
import referenceRoutes from './reference/reference.routes.ts';
import authRoutes from './auth/auth.routes.ts';
import loadsRoutes from './loads/loads.routes.ts';
import offersRoutes from './offers/offers.routes.ts';
import devRoutes from './dev/dev.routes.ts';
import filesRoutes from './files/files.routes.ts';
import fleetRoutes from './fleet/fleet.routes.ts';
import vendorsRoutes from './vendors/vendors.routes.ts';
import csvRoutes from './csv/csv.routes.ts';
import apiKeysRoutes from './apikeys/apikeys.routes.ts';
import webhooksRoutes from './webhooks/webhooks.routes.ts';
import billingRoutes from './billing/billing.routes.ts';
import tripsRoutes from './trips/trips.routes.ts';
import verificationRoutes from './verification/verification.routes.ts';
import bayanRoutes from './bayan/bayan.routes.ts';
import assignmentRoutes from './assignment/assignment.routes.ts';
import contactRoutes from './contact/contact.routes.ts';
import profileRoutes from './profile/profile.routes.ts';
import teamRoutes from './team/team.routes.ts';
import relationsRoutes from './relations/relations.routes.ts';
import trucksRoutes from './trucks/trucks.routes.ts';
import searchesRoutes from './searches/searches.routes.ts';

/** Every domain module's routes, mounted under /api/v1 by app.ts. */
export async function registerModules(app: FastifyInstance) {
  await app.register(referenceRoutes);
  await app.register(authRoutes);
  await app.register(loadsRoutes);
  await app.register(offersRoutes);
  await app.register(devRoutes);
  await app.register(filesRoutes);
  await app.register(fleetRoutes);
  await app.register(vendorsRoutes);
  await app.register(csvRoutes);
  await app.register(apiKeysRoutes);
  await app.register(webhooksRoutes);
  await app.register(billingRoutes);
  await app.register(verificationRoutes);
  await app.register(bayanRoutes);
  await app.register(assignmentRoutes);
  await app.register(tripsRoutes);
  await app.register(contactRoutes);
  await app.register(profileRoutes);
  await app.register(teamRoutes);
  await app.register(relationsRoutes);
  await app.register(trucksRoutes);
  await app.register(searchesRoutes);
}
