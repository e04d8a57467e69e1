import type { Config } from '../../config.ts';
import type { Db } from '../client.ts';

/** Seed demo accounts and loads (README "Demo accounts"). Idempotent. To be built. */
export async function seedDemo(_db: Db, _config: Config): Promise<void> {}
