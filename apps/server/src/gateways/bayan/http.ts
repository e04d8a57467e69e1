import {
  BAYAN_CANCEL_REASON_IDS,
  BayanRejectedError,
  BayanUnavailableError,
  type BayanDriver,
  type BayanGateway,
  type BayanTrip,
  type BayanTripInput,
  type BayanVehicle,
  type BayanWaybill,
} from './bayan.ts';

/**
 * Elm's Bayan REST API (BAYAN_GATEWAY=http). Base URL e.g. `https://bayan.api.elm.sa/api/v1`
 * (staging `https://bayan-stg.api.elm.sa/api/v1`); every call carries the `app_id`, `app_key`
 * and `client_id` headers. Paths and bodies as public integrations use them (docs/bayan-wasl.md):
 * - POST /carrier/trip {vehicle, driver, receivedDate, expectedDeliveryDate, notes, waybills} → {tripId, waybills: [{waybillId, waybillNumber?}]}
 * - PUT /carrier/trip/vehicle {tripId, vehicle}; PUT /carrier/trip/driver {tripId, driver} (guessed paths)
 * - GET /carrier/trip/:id; GET /carrier/trip/:id/print → application/pdf
 * - PUT /carrier/trip/waybill/close {waybillId, actualDeliveryDate}; PUT /carrier/trip/waybill/cancel {waybillId, reasonId}
 * A network error, timeout or 5xx is BayanUnavailableError (retry later); a 4xx is BayanRejectedError.
 * A trip creation carries an `Idempotency-Key` header (Masar's load + attempt, issue 22).
 */
export function createHttpBayan(opts: {
  baseUrl: string;
  appId: string;
  appKey: string;
  clientId: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}): BayanGateway {
  const f = opts.fetch ?? fetch;
  const base = opts.baseUrl.replace(/\/$/, '');
  async function call(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<Response> {
    let res: Response;
    try {
      res = await f(`${base}${path}`, {
        method,
        headers: {
          app_id: opts.appId,
          app_key: opts.appKey,
          client_id: opts.clientId,
          accept: 'application/json, application/pdf',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...extraHeaders,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(opts.timeoutMs ?? 15_000),
      });
    } catch (err) {
      throw new BayanUnavailableError(`Bayan unreachable: ${(err as Error).message}`);
    }
    if (res.status >= 500 || res.status === 429) throw new BayanUnavailableError(`Bayan answered ${res.status}`);
    if (res.status >= 400) {
      const j = (await res.json().catch(() => ({}))) as { message?: string; errors?: { field?: string; path?: string; code?: string; message?: string }[] };
      const errors = (Array.isArray(j.errors) ? j.errors : []).map((e) => ({
        path: String(e.field ?? e.path ?? ''),
        code: String(e.code ?? e.message ?? 'INVALID'),
      }));
      throw new BayanRejectedError(`Bayan refused (${res.status}): ${j.message ?? ''}`, errors);
    }
    return res;
  }
  const json = async (res: Response) => (await res.json().catch(() => ({}))) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '');
  const statusOf = (v: unknown): BayanWaybill['status'] => {
    const s = str(v).toLowerCase();
    // integrations name the statuses 1 active, 2 cancelled, 3 closed
    return s === '3' || s.includes('clos') ? 'closed' : s === '2' || s.includes('cancel') ? 'cancelled' : 'active';
  };
  const toWaybill = (w: Record<string, unknown>): BayanWaybill => ({
    waybillId: str(w.waybillId ?? w.id),
    waybillNumber: str(w.waybillNumber ?? w.number ?? w.waybillId ?? w.id),
    status: statusOf(w.status ?? w.statusId),
    actualDeliveryDate: w.actualDeliveryDate ? str(w.actualDeliveryDate).slice(0, 10) : null,
    cancelReasonId: typeof w.reasonId === 'number' ? w.reasonId : null,
  });
  const toTrip = (
    r: Record<string, unknown>,
    sent?: { vehicle: BayanVehicle; driver: BayanDriver; receivedDate: string; expectedDeliveryDate: string },
  ): BayanTrip => {
    const tripId = str(r.tripId ?? r.id);
    if (!tripId) throw new BayanUnavailableError('Bayan answered without a trip id');
    return {
      tripId,
      // a trip read back may leave out the vehicle or driver (not seen in integrations): blanks, not a crash
      vehicle: (r.vehicle as BayanVehicle | undefined) ??
        sent?.vehicle ?? { plateTypeId: 0, vehiclePlate: { number: '', rightLetter: '', middleLetter: '', leftLetter: '' } },
      driver: (r.driver as BayanDriver | undefined) ?? sent?.driver ?? { identityNumber: '', issueNumber: 0, mobile: '' },
      receivedDate: str(r.receivedDate ?? sent?.receivedDate).slice(0, 10),
      expectedDeliveryDate: str(r.expectedDeliveryDate ?? sent?.expectedDeliveryDate).slice(0, 10),
      waybills: (Array.isArray(r.waybills) ? (r.waybills as Record<string, unknown>[]) : []).map(toWaybill),
    };
  };
  const trip = async (id: string) => toTrip(await json(await call('GET', `/carrier/trip/${encodeURIComponent(id)}`)));
  return {
    name: 'http',
    async createTrip(input: BayanTripInput, o?: { idempotencyKey?: string }) {
      const headers: Record<string, string> = o?.idempotencyKey ? { 'idempotency-key': o.idempotencyKey } : {};
      return toTrip(await json(await call('POST', '/carrier/trip', input, headers)), input);
    },
    async changeVehicle(tripId, vehicle) {
      await call('PUT', '/carrier/trip/vehicle', { tripId: Number(tripId), vehicle });
      return trip(tripId);
    },
    async changeDriver(tripId, driver) {
      await call('PUT', '/carrier/trip/driver', { tripId: Number(tripId), driver });
      return trip(tripId);
    },
    async getTrip(tripId) {
      try {
        return await trip(tripId);
      } catch (e) {
        if (e instanceof BayanRejectedError) return null;
        throw e;
      }
    },
    async printTrip(tripId) {
      const res = await call('GET', `/carrier/trip/${encodeURIComponent(tripId)}/print`);
      return Buffer.from(await res.arrayBuffer());
    },
    async closeWaybill(waybillId, actualDeliveryDate) {
      const r = await json(await call('PUT', '/carrier/trip/waybill/close', { waybillId: Number(waybillId), actualDeliveryDate }));
      return { ...toWaybill({ waybillId, ...r }), status: 'closed', actualDeliveryDate };
    },
    async cancelWaybill(waybillId, reason) {
      const reasonId = BAYAN_CANCEL_REASON_IDS[reason];
      const r = await json(await call('PUT', '/carrier/trip/waybill/cancel', { waybillId: Number(waybillId), reasonId }));
      return { ...toWaybill({ waybillId, ...r }), status: 'cancelled', cancelReasonId: reasonId };
    },
  };
}
