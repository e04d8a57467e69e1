import type { Config } from '../../config.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { BayanGateway } from './bayan.ts';
import { createHttpBayan } from './http.ts';
import { createSandboxBayan } from './sandbox.ts';
import { dbBayanStore } from './sandbox.repository.ts';

type BayanConfig = Pick<
  Config,
  | 'BAYAN_GATEWAY'
  | 'BAYAN_BASE_URL'
  | 'BAYAN_APP_ID'
  | 'BAYAN_APP_KEY'
  | 'BAYAN_CLIENT_ID'
  | 'BAYAN_SANDBOX_FAIL'
  | 'BAYAN_SANDBOX_DELAY_MS'
  | 'BAYAN_SANDBOX_ANSWER_DELAY_MS'
  | 'BAYAN_TIMEOUT_MS'
>;

/** The log message of a held answer (crash tests wait for it in a child server's log). */
export const BAYAN_ANSWER_HELD = 'bayan sandbox: trip filed, its answer held';

/**
 * The Bayan gateway chosen by BAYAN_GATEWAY: `sandbox` (default; its trips in the database) or
 * `http` (Elm's service). `log`: the sandbox says when it holds a filed trip's answer
 * (BAYAN_SANDBOX_ANSWER_DELAY_MS), so that a crash test knows the trip is filed.
 */
export function createBayanGateway(config: BayanConfig, db: DbOrTx, log?: (tripId: string) => void): BayanGateway {
  if (config.BAYAN_GATEWAY === 'http') {
    if (!config.BAYAN_APP_ID || !config.BAYAN_APP_KEY || !config.BAYAN_CLIENT_ID)
      throw new Error('BAYAN_GATEWAY=http needs BAYAN_APP_ID, BAYAN_APP_KEY and BAYAN_CLIENT_ID');
    return createHttpBayan({
      baseUrl: config.BAYAN_BASE_URL,
      appId: config.BAYAN_APP_ID,
      appKey: config.BAYAN_APP_KEY,
      clientId: config.BAYAN_CLIENT_ID,
      timeoutMs: config.BAYAN_TIMEOUT_MS,
    });
  }
  return createSandboxBayan({
    store: dbBayanStore(db),
    fail: config.BAYAN_SANDBOX_FAIL,
    delayMs: config.BAYAN_SANDBOX_DELAY_MS,
    answerDelayMs: config.BAYAN_SANDBOX_ANSWER_DELAY_MS,
    onAnswerHeld: log,
  });
}
