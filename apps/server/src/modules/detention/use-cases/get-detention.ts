import { DETENTION_STEPS, detentionOf, fromHalalas, toHalalas, type Detention } from '@masar/shared';
import type { DbOrTx } from '../../../db/client.ts';
import { AppError } from '../../../lib/errors.ts';
import type { CurrentUser } from '../../auth/auth.types.ts';
import type { DetentionDeps } from '../deps.ts';
import * as repo from '../detention.repository.ts';

const fact = (s: repo.StepFact | undefined) =>
  s
    ? {
        at: (s.recordedAt ?? s.at).toISOString(),
        recordedOffline: s.recordedAt !== null && s.recordedAt.getTime() !== s.at.getTime(),
        lat: s.lat,
        lng: s.lng,
        distanceKm: s.distanceKm,
        flagged: s.flagged,
      }
    : null;

/**
 * A load's detention from its trip (issue 50; rules/detention.ts): for each stop the arrival and
 * departure steps (device time when recorded offline), the dwell, the billable minutes beyond
 * the post's free hours at its hourly rate, capped per stop, live while the truck is still there;
 * with the evidence (times, positions and their geofence, the stop's proof) and the shipper's
 * decision. For the shipper and the booked carrier. Errors: NOT_FOUND (not a party),
 * DETENTION_NOT_AVAILABLE (no rate posted).
 */
export async function computeDetention(db: DbOrTx, loadId: string, now: Date): Promise<{ terms: repo.DetentionTerms; view: Detention }> {
  const terms = await repo.termsOf(db, loadId);
  if (!terms) throw new AppError('NOT_FOUND');
  if (!terms.rate || terms.freeHours === null) throw new AppError('DETENTION_NOT_AVAILABLE');
  const [steps, proofs, decisions] = await Promise.all([repo.stepsOf(db, loadId), repo.proofIdsOf(db, loadId), repo.decisionsOf(db, loadId)]);
  const byStep = new Map(steps.map((s) => [s.step, s]));
  const rateHalalas = toHalalas(terms.rate);
  const capHalalas = terms.cap === null ? null : toHalalas(terms.cap);
  let total = 0;
  const stops = (['pickup', 'drop'] as const).map((stop) => {
    const arrival = byStep.get(DETENTION_STEPS[stop].arrival);
    const departure = byStep.get(DETENTION_STEPS[stop].departure);
    const time = (s: repo.StepFact) => s.recordedAt ?? s.at;
    const r = arrival
      ? detentionOf({ arrivedAt: time(arrival), departedAt: departure ? time(departure) : null, now, freeHours: terms.freeHours!, rateHalalas, capHalalas })
      : { dwellMinutes: 0, billableMinutes: 0, amountHalalas: 0, capped: false, accruing: false };
    const d = decisions.find((x) => x.stop === stop);
    total += d ? (d.decision === 'accepted' ? Number(d.amountHalalas) : 0) : r.amountHalalas;
    return {
      stop,
      arrival: fact(arrival),
      departure: fact(departure),
      proofId: proofs[stop] ?? null,
      ...r,
      amountSar: fromHalalas(r.amountHalalas),
      decision: d ? { decision: d.decision, amountSar: fromHalalas(Number(d.amountHalalas)), reason: d.reason, at: new Date(d.decidedAt).toISOString() } : null,
    };
  });
  return {
    terms,
    view: {
      loadId,
      freeHours: terms.freeHours,
      rateSar: fromHalalas(rateHalalas),
      capSar: capHalalas === null ? null : fromHalalas(capHalalas),
      stops,
      totalSar: fromHalalas(total),
    },
  };
}

/** GET /loads/:id/detention (shipper and booked carrier). */
export async function getDetention(deps: Pick<DetentionDeps, 'db' | 'now'>, user: CurrentUser, loadId: string): Promise<Detention> {
  const { terms, view } = await computeDetention(deps.db, loadId, (deps.now ?? (() => new Date()))());
  if (user.id !== terms.shipperId && user.id !== terms.carrierId) throw new AppError('NOT_FOUND');
  return view;
}
