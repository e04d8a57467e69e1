import type { WaybillConfig } from '@masar/shared';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../bayan.repository.ts';
import type { BayanDeps } from '../deps.ts';

export type GetWaybillConfigDeps = Pick<BayanDeps, 'db'>;

/** GET /account/waybill-config. */
export async function getWaybillConfig(deps: GetWaybillConfigDeps, user: CurrentUser): Promise<{ config: WaybillConfig | null }> {
  const c = await repo.getWaybillConfig(deps.db, user.id);
  return { config: c ? { senderName: c.senderName, senderPhone: c.senderPhone, senderAddress: c.senderAddress, senderCityId: c.senderCityId } : null };
}
