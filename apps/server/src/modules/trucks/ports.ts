import type { InOutDirection, Load } from '@masar/shared';

/* What the trucks module asks of other modules (injected by the container). */

/**
 * What the trucks module asks of the loads module (which owns loads; the loads service), for the
 * shipment in/out log and the load-to-truck ratio (issue 19).
 */
export interface LoadsOfArea {
  /**
   * One page of open marketplace loads picking up in (out) / delivering to (in) the circle in the
   * window, and both counts (uncapped up to COUNT_CAP + 1; up to INOUT_FIGURES_TTL_MS old unless
   * `fresh`).
   */
  inOutLog(
    a: { cityId: number; radius?: number | null; from: Date; to: Date },
    direction: InOutDirection,
    limit: number,
    cursor: string | undefined,
    viewerId: string | null,
    fresh?: boolean,
  ): Promise<{ counts: Record<InOutDirection, number>; items: Load[]; nextCursor: string | null }>;
  /** Marketplace loads first picked up in the circle posted since `since`. */
  loadsPostedInArea(cityId: number, radius: number | null | undefined, since: Date): Promise<number>;
}
