import { describe, expect, it } from 'vitest';
import { nextTripStep, PLAIN_TRIP_STEPS, TRIP_STEPS, tripStepAllowed, tripStepBody, type TripStep } from './trips.ts';

describe('the trip step machine', () => {
  it('allows exactly the next step, from nothing to completed', () => {
    let last: TripStep | null = null;
    for (const step of TRIP_STEPS) {
      for (const other of TRIP_STEPS) expect(tripStepAllowed(last, other), `${last} → ${other}`).toBe(other === step);
      last = step;
    }
    expect(nextTripStep('completed')).toBeNull();
    expect(nextTripStep(null)).toBe('started');
  });

  it('leaves the proof steps to the proof upload', () => {
    expect(PLAIN_TRIP_STEPS).toEqual(['started', 'to_pickup', 'at_pickup', 'to_drop', 'at_drop', 'completed']);
    const loadId = '01a201c4-0000-7000-8000-000000000009';
    expect(tripStepBody.safeParse({ loadId, step: 'pickup_proof' }).success).toBe(false);
    expect(tripStepBody.safeParse({ loadId, step: 'started', lat: 24.7 }).success).toBe(false);
    expect(tripStepBody.safeParse({ loadId, step: 'started', lat: 24.7, lng: 46.7 }).success).toBe(true);
    expect(tripStepBody.safeParse({ loadId, step: 'started', geoError: 'denied' }).success).toBe(true);
  });
});
