-- Issue 20 "Rate-change alerts" (spec §2 /rate-change-alerts; spec §3 "saved search and
-- rate-change alert: lane, increment or decrement threshold, alert e-mail; rate alert window
-- 24 hours"). Owned by modules/rates (alerts.repository.ts); docs/rate-forecast.md.
--
-- rate_alerts: an account's saved lane (origin and destination city, equipment or '*' for all,
-- spot or contract) with a direction (up, down or both), a threshold in % or SAR and the e-mail
-- to alert. At most 20 per account, counted under the account's cap lock (lib/locks.ts).
create table rate_alerts (
  id uuid primary key,
  account_id uuid not null references users(id),
  origin_city_id integer not null references cities(id),
  destination_city_id integer not null references cities(id),
  equipment text not null default '*',
  kind text not null default 'spot' check (kind in ('spot', 'contract')),
  direction text not null check (direction in ('up', 'down', 'both')),
  threshold numeric(12, 2) not null check (threshold > 0),
  unit text not null check (unit in ('pct', 'sar')),
  email text not null,
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index rate_alerts_account on rate_alerts (account_id, created_at desc, id desc);
-- the hourly job walks the active alerts
create index rate_alerts_active on rate_alerts (id) where active;

-- One row per crossing: window_key names the 24-hour window compared (the Riyadh day that ends
-- it, e.g. '2026-11-25'), so a crossing fires once however often (or however concurrently) the
-- job runs; the rate.alert_triggered event is published in the same transaction as the insert.
-- emailed_at is stamped by the outbox handler after the send (a redelivery sends nothing twice).
create table rate_alert_firings (
  id uuid primary key,
  alert_id uuid not null references rate_alerts(id) on delete cascade,
  window_key text not null,
  previous_avg_sar numeric(12, 2) not null,
  current_avg_sar numeric(12, 2) not null,
  change_pct numeric(8, 2) not null,
  fired_at timestamptz not null default now(),
  emailed_at timestamptz,
  last_error text,
  unique (alert_id, window_key)
);
create index rate_alert_firings_alert on rate_alert_firings (alert_id, fired_at desc);
