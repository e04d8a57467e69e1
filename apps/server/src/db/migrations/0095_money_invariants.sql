-- Money invariants (issue 22).
--
-- 1. One live plan per account is a database invariant: at most one subscription row per user
--    has active = true (trialing, active, past_due, or cancelled-at-period-end but still in force;
--    modules/billing sets active = false when a plan ends or is replaced). Two checkouts of one
--    plan racing with different Idempotency-Keys can no longer both leave a plan: the second
--    insert fails. Rows that already break it keep their newest live plan; the older ones end now.
update subscriptions s
   set active = false, status = 'cancelled', ends_at = least(coalesce(s.ends_at, now()), now())
 where s.active
   and exists (
     select 1 from subscriptions n
      where n.user_id = s.user_id and n.active and n.id <> s.id
        and (n.started_at, n.id) > (s.started_at, s.id)
   );
create unique index if not exists subscriptions_one_live_per_user on subscriptions (user_id) where active;

-- 2. A card's last charge: when the bank declined it (and why), cleared by the next successful
--    charge. A declined card is never the default (renewal) card nor preselected at checkout, and
--    the saved-cards page offers to remove it.
alter table payment_cards add column if not exists last_charge_failed_at timestamptz;
alter table payment_cards add column if not exists last_charge_failure text;
