-- Payouts (issue 50): a carrier's (or broker's) Saudi IBAN for payouts, validated by the shared
-- schema (SA + 22, MOD 97) before it is stored; the bank code is characters 5–6.
create table payout_accounts (
  user_id uuid primary key references users (id) on delete cascade,
  iban text not null check (iban ~ '^SA[0-9]{4}[0-9A-Z]{18}$'),
  holder_name text not null,
  updated_at timestamptz not null default now()
);
