import type { Config } from '../../config.ts';
import { createHttpWasl } from './http.ts';
import { createSandboxWasl } from './sandbox.ts';
import type { WaslGateway } from './wasl.ts';

/** The WASL gateway chosen by WASL_GATEWAY: `sandbox` (default) or `http` (Elm's service). */
export function createWaslGateway(config: Pick<Config, 'WASL_GATEWAY' | 'WASL_BASE_URL' | 'WASL_APP_ID' | 'WASL_APP_KEY'>): WaslGateway {
  if (config.WASL_GATEWAY === 'http') {
    if (!config.WASL_APP_ID || !config.WASL_APP_KEY) throw new Error('WASL_GATEWAY=http needs WASL_APP_ID and WASL_APP_KEY');
    return createHttpWasl({ baseUrl: config.WASL_BASE_URL, appId: config.WASL_APP_ID, appKey: config.WASL_APP_KEY });
  }
  return createSandboxWasl();
}
