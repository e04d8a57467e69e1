import { PLANS, type Language, type Plan, type PlanView } from '@masar/shared';
import { planView } from '../billing.shared.ts';

/** The plan catalogue in the request's language, optionally for one audience. Needs no deps: the catalogue is code (packages/shared). */
export function listPlans(lang: Language, audience?: Plan['audience']): PlanView[] {
  return PLANS.filter((p) => !audience || p.audience === audience).map((p) => planView(p, lang));
}
