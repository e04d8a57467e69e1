// One Drizzle pg-core schema for PGlite and PostgreSQL. Keep in step with ../migrations/*.sql.
export * from './reference.ts';
export * from './accounts.ts';
export * from './loads.ts';
export * from './fleet.ts';
export * from './events.ts';
export * from './idempotency.ts';
export * from './integrations.ts';
export * from './billing.ts';
export * from './verification.ts';
export * from './bayan.ts';
export * from './trips.ts';
export * from './profile.ts';
export * from './relations.ts';
export * from './contact.ts';
export * from './trucks.ts';
export * from './searches.ts';
