import { z } from 'zod';
import type { changeAudienceBody, createLoadBody, extendDatesBody, Load, updateLoadBody } from '@masar/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { CurrentUser } from '../auth/auth.types.ts';
import type { AuthoringDeps, LoadsDeps } from './ports.ts';
import { changeAudience } from './use-cases/change-audience.ts';
import { createLoad } from './use-cases/create-load.ts';
import { duplicateLoad } from './use-cases/duplicate-load.ts';
import { editLoad } from './use-cases/edit-load.ts';
import { extendDates } from './use-cases/extend-dates.ts';

export { ownLoad } from './authoring.shared.ts';

/**
 * Authoring loads (spec §2 post shipment; issue 2, 7): create (post or save unposted), edit,
 * duplicate, change audience, extend dates. Derives distance, weight, rate and expiry from the
 * stops and cargo. `get` reads the result back as its author sees it. Posting and booking an
 * own-vehicle shipment go through the lifecycle's transition(). Each in its use case
 * (use-cases/*.ts); what they share in authoring.shared.ts.
 */
export function createLoadAuthoring(
  deps: Pick<LoadsDeps, 'db' | 'config' | 'routing' | 'offers' | 'vendors'>,
  get: (id: string, viewerId: string | null, via?: DbOrTx) => Promise<Load>,
) {
  const d: AuthoringDeps = { db: deps.db, config: deps.config, routing: deps.routing, offers: deps.offers, vendors: deps.vendors, get };
  return {
    /** Post (or save unposted) a load (use-cases/create-load.ts). */
    create: (user: CurrentUser, body: z.output<typeof createLoadBody>, outer?: DbOrTx) => createLoad(d, user, body, outer),
    /** Edit a posted or unposted load (use-cases/edit-load.ts). */
    update: (user: CurrentUser, id: string, body: z.output<typeof updateLoadBody>) => editLoad(d, user, id, body),
    /** Copy a load of mine as a new unposted load (use-cases/duplicate-load.ts). */
    duplicate: (user: CurrentUser, id: string) => duplicateLoad(d, user, id),
    /** Change where a shipment goes: marketplace, vendors or own vehicle (use-cases/change-audience.ts). */
    changeAudience: (user: CurrentUser, id: string, body: z.output<typeof changeAudienceBody>) => changeAudience(d, user, id, body),
    /** Extend the pickup and/or delivery date (use-cases/extend-dates.ts). */
    extendDates: (user: CurrentUser, id: string, body: z.output<typeof extendDatesBody>) => extendDates(d, user, id, body),
  };
}
