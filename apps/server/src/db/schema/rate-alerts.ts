import { boolean, index, uniqueIndex, integer, numeric, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

// Drizzle mirror of migrations/0113_rate_alerts.sql (issue 20 rate-change alerts; modules/rates).
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** An account's rate-change alert on a lane (docs/rate-forecast.md). */
export const rateAlerts = pgTable(
  'rate_alerts',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id').notNull(),
    originCityId: integer('origin_city_id').notNull(),
    destinationCityId: integer('destination_city_id').notNull(),
    /** An equipment code, or '*' for every equipment. */
    equipment: text('equipment').notNull().default('*'),
    kind: text('kind').notNull().default('spot').$type<'spot' | 'contract'>(),
    direction: text('direction').notNull().$type<'up' | 'down' | 'both'>(),
    threshold: numeric('threshold', { precision: 12, scale: 2 }).notNull(),
    unit: text('unit').notNull().$type<'pct' | 'sar'>(),
    email: text('email').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('rate_alerts_account').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    // identical alerts refused (issue 46; migration 0135): DUPLICATE_RATE_ALERT
    uniqueIndex('rate_alerts_identical').on(t.accountId, t.originCityId, t.destinationCityId, t.equipment, t.kind, t.direction, t.threshold, t.unit),
  ],
);

/** One firing of an alert per crossing: unique (alert, window). */
export const rateAlertFirings = pgTable(
  'rate_alert_firings',
  {
    id: uuid('id').primaryKey(),
    alertId: uuid('alert_id').notNull(),
    windowKey: text('window_key').notNull(),
    previousAvgSar: numeric('previous_avg_sar', { precision: 12, scale: 2 }).notNull(),
    currentAvgSar: numeric('current_avg_sar', { precision: 12, scale: 2 }).notNull(),
    changePct: numeric('change_pct', { precision: 8, scale: 2 }).notNull(),
    firedAt: ts('fired_at').notNull().defaultNow(),
    emailedAt: ts('emailed_at'),
    lastError: text('last_error'),
  },
  (t) => [unique('rate_alert_firings_alert_id_window_key_key').on(t.alertId, t.windowKey), index('rate_alert_firings_alert').on(t.alertId, t.firedAt.desc())],
);
