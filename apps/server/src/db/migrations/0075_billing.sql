-- Plans, checkout, cards, promo codes, wallet and invoices (issue 8). Money in integer halalas
-- (bigint): sums and VAT stay exact; the API shows decimal strings.

-- Subscriptions get a lifecycle: trialing → active → (cancelled at period end | past_due) → expired.
-- `active` stays the flag every plan check reads (with current_period_end); the rest say why.
alter table subscriptions
  add column status text not null default 'active',
  add column trial boolean not null default false,
  add column cancel_at_period_end boolean not null default false,
  add column price_halalas bigint,
  add column months smallint,
  add column card_id uuid,
  add column renewal_attempts smallint not null default 0,
  add column last_renewal_error text,
  add column last_renewal_at timestamptz,
  add column cancelled_at timestamptz;
-- the renewal job's scan: active, renewing subscriptions by period end
create index subscriptions_renewal_idx on subscriptions (ends_at) where active and not cancel_at_period_end and not trial;
create index subscriptions_user_started_idx on subscriptions (user_id, started_at desc);

-- Saved cards: the gateway's token and what a person needs to recognise the card. Never the
-- number or the CVC (PCI DSS: they go to the gateway only).
create table payment_cards (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  gateway text not null,
  token text not null,
  brand text not null,
  last4 text not null,
  exp_month smallint not null,
  exp_year smallint not null,
  holder_name text not null,
  is_default boolean not null default false,
  created_at timestamptz not null default now(),
  deleted_at timestamptz
);
create index payment_cards_user_idx on payment_cards (user_id, created_at desc) where deleted_at is null;

create table promo_codes (
  code text primary key,
  -- percent: value is a whole percentage (1..100); fixed: value is halalas off
  kind text not null check (kind in ('percent', 'fixed')),
  value bigint not null check (value > 0),
  expires_at timestamptz,
  max_redemptions integer,
  redemptions integer not null default 0,
  -- null: every plan
  plan_codes text[],
  active boolean not null default true,
  created_at timestamptz not null default now()
);
-- once per user: the unique pair decides even when two payments race
create table promo_redemptions (
  code text not null references promo_codes (code),
  user_id uuid not null references users (id) on delete cascade,
  intent_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (code, user_id)
);

-- One row per payment attempt. (user_id, idempotency_key) is unique: a retried request finds
-- the first intent and never charges twice.
create table payment_intents (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  idempotency_key text not null,
  request_hash text not null,
  purpose smallint not null,
  status text not null,
  plan_code text,
  price_halalas bigint not null,
  discount_halalas bigint not null default 0,
  amount_halalas bigint not null,
  vat_halalas bigint not null,
  total_halalas bigint not null,
  card_id uuid,
  pay_with_wallet boolean not null default false,
  promo_code text,
  gateway text,
  gateway_ref text,
  action_url text,
  failure_code text,
  subscription_id uuid,
  invoice_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (user_id, idempotency_key)
);
create index payment_intents_user_idx on payment_intents (user_id, created_at desc);

-- The wallet is a ledger: balance = sum(amount_halalas); nothing stores a balance alone.
create table wallet_entries (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  kind text not null check (kind in ('recharge', 'payment', 'refund')),
  amount_halalas bigint not null,
  intent_id uuid,
  created_at timestamptz not null default now()
);
create index wallet_entries_user_idx on wallet_entries (user_id, created_at desc);
-- one ledger line per intent and kind: a replayed success never credits twice
create unique index wallet_entries_intent_idx on wallet_entries (intent_id, kind) where intent_id is not null;

create sequence invoice_number_seq;
create table invoices (
  id uuid primary key,
  number text not null unique,
  user_id uuid not null references users (id) on delete cascade,
  intent_id uuid not null unique,
  issued_at timestamptz not null default now(),
  seller jsonb not null,
  buyer jsonb not null,
  lines jsonb not null,
  subtotal_halalas bigint not null,
  vat_halalas bigint not null,
  total_halalas bigint not null,
  zatca_qr text not null
);
create index invoices_user_idx on invoices (user_id, issued_at desc);
