import type { WaybillConfig } from '@masar/shared';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import * as repo from '../bayan.repository.ts';
import type { BayanDeps } from '../deps.ts';

export type PutWaybillConfigDeps = Pick<BayanDeps, 'db'>;

/** PUT /account/waybill-config: the sender defaults of the user's waybills. INVALID_CITY. */
export async function putWaybillConfig(deps: PutWaybillConfigDeps, user: CurrentUser, b: WaybillConfig): Promise<{ config: WaybillConfig }> {
  if (!(await repo.cityExists(deps.db, b.senderCityId))) throw new AppError('INVALID_CITY');
  await repo.putWaybillConfig(deps.db, { userId: user.id, ...b });
  return { config: b };
}
