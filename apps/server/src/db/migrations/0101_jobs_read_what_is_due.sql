-- Jobs that read only what is due (issue 24). Every periodic job (jobs/definitions.ts) finds its
-- rows through an index condition on their due time, so that a run with nothing (or little) due
-- costs the same at any table size. Already so before this migration: loads.expire
-- (loads_posted_expiry, 0051), billing.renew's renewals (subscriptions_renewal_idx, 0075), the
-- idempotency-key cleanup (idempotency_keys_created_idx, 0045), the outbox drain
-- (outbox_events_undelivered_idx, 0051), the webhook sender (webhook_deliveries_pending_idx, 0060).

-- cleanup.daily: one-time codes expired or used before the cutoff, sessions expired or revoked
-- before it. Each is an OR of two times: a BitmapOr of one index per time.
create index otps_expires_at on otps (expires_at);
create index otps_consumed_at on otps (consumed_at) where consumed_at is not null;
create index sessions_expires_at on sessions (expires_at);
create index sessions_revoked_at on sessions (revoked_at) where revoked_at is not null;

-- cleanup.daily: webhook deliveries finished (succeeded or failed) more than 30 days ago.
create index webhook_deliveries_finished on webhook_deliveries (created_at) where status in ('succeeded', 'failed');

-- billing.renew: trials and plans cancelled at period end, active, whose period ends.
create index subscriptions_ending_idx on subscriptions (ends_at) where active and (trial or cancel_at_period_end);

-- bayan.sweep (every minute): pending trips not updated for BAYAN_STALE_SECONDS.
create index bayan_trips_pending_stale on bayan_trips (updated_at) where status = 'pending';

-- csv.sweep: imports still processing (the finished ones, every import ever made, are not read).
create index csv_logs_processing on csv_logs (created_at) where status = 'processing';
