import * as repo from '../chat.repository.ts';
import { conversationKeys } from '../chat.shared.ts';
import type { ChatDeps } from '../deps.ts';

export type CallPartiesDeps = Pick<ChatDeps, 'db'>;

/**
 * The parties of a conversation for the calls module (issue 21 "Calls"): its load and the two
 * sides' accounts and company names; null when there is no such conversation.
 */
export async function callParties({ db }: CallPartiesDeps, id: string) {
  const c = await repo.conversationById(db, id);
  if (!c) return null;
  return {
    ...conversationKeys(c),
    shipperCompany: c.shipper_company,
    carrierCompany: c.carrier_company,
  };
}
