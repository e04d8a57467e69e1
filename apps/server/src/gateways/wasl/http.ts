import { WaslUnavailableError, type WaslDriverInput, type WaslGateway, type WaslResult, type WaslVehicleInput } from './wasl.ts';

/**
 * Elm's WASL REST API (WASL_GATEWAY=http), base e.g. `https://wasl.api.elm.sa/api/v1`; headers
 * `app-id` and `app-key`. As public integrations use it (docs/bayan-wasl.md; paths guessed):
 * - POST /vehicles {sequenceNumber, plateType, vehiclePlate: {number, rightLetter, middleLetter, leftLetter}, imeiNumber}
 * - POST /drivers {identityNumber, dateOfBirthHijri, dateOfBirthGregorian, mobileNumber}
 * answering `{success, resultCode, result: {referenceKey, isValid, rejectionReasons}}`. A 4xx with
 * `success: false` is "not verified" with `resultCode` as the reason; 5xx/timeout is WaslUnavailableError.
 */
export function createHttpWasl(opts: { baseUrl: string; appId: string; appKey: string; timeoutMs?: number; fetch?: typeof fetch }): WaslGateway {
  const f = opts.fetch ?? fetch;
  const base = opts.baseUrl.replace(/\/$/, '');
  async function post(path: string, body: unknown): Promise<WaslResult> {
    let res: Response;
    try {
      res = await f(`${base}${path}`, {
        method: 'POST',
        headers: { 'app-id': opts.appId, 'app-key': opts.appKey, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
      });
    } catch (err) {
      throw new WaslUnavailableError(`WASL unreachable: ${(err as Error).message}`);
    }
    if (res.status >= 500 || res.status === 429) throw new WaslUnavailableError(`WASL answered ${res.status}`);
    const j = (await res.json().catch(() => ({}))) as {
      success?: boolean;
      resultCode?: string;
      result?: { referenceKey?: string; isValid?: boolean; rejectionReasons?: string[] };
    };
    const r = j.result ?? {};
    const ok = res.status < 400 && j.success !== false && r.isValid !== false;
    if (ok) return { status: 'verified', reasons: [], referenceKey: r.referenceKey ?? null };
    const reasons =
      Array.isArray(r.rejectionReasons) && r.rejectionReasons.length ? r.rejectionReasons.map(String) : [String(j.resultCode ?? `HTTP_${res.status}`)];
    return { status: 'not_verified', reasons, referenceKey: null };
  }
  return {
    name: 'http',
    registerVehicle: (v: WaslVehicleInput) => post('/vehicles', v),
    registerDriver: (d: WaslDriverInput) => post('/drivers', d),
  };
}
