-- Payment protection (issue 50): an opt-in per load; at booking the shipper's wallet funds the
-- agreed price + VAT into escrow, released to the carrier after the dispute window that follows
-- the shipment's completion, held by a dispute until the operator settles it.

alter table loads add column payment_protection boolean not null default false;

create table escrows (
  id uuid primary key,
  load_id uuid not null references loads (id),
  shipper_id uuid not null,
  carrier_id uuid not null,
  price_halalas bigint not null check (price_halalas > 0),
  vat_halalas bigint not null check (vat_halalas >= 0),
  status text not null check (status in ('unfunded', 'funded', 'release_scheduled', 'disputed', 'released', 'settled', 'refunded', 'cancelled')),
  funded_at timestamptz,
  release_at timestamptz,
  released_at timestamptz,
  disputed_at timestamptz,
  dispute_by uuid,
  dispute_reason text,
  dispute_evidence text,
  settled_at timestamptz,
  settlement text check (settlement in ('full', 'partial', 'refund')),
  settled_carrier_halalas bigint check (settled_carrier_halalas >= 0),
  settlement_reason text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- one escrow per load: the booking handler may run twice (at-least-once delivery)
  constraint escrows_one_per_load unique (load_id),
  check (release_at is not null or status <> 'release_scheduled')
);
-- the release job reads only due rows
create index escrows_release_due on escrows (release_at) where status = 'release_scheduled';
create index escrows_carrier_idx on escrows (carrier_id, created_at desc);
create index escrows_shipper_idx on escrows (shipper_id, created_at desc);

-- The billing wallet's side of an escrow: the debit that funds it and the refund of a cancelled
-- or settled one, one of each kind per escrow (a replayed funding never debits twice).
alter table wallet_entries drop constraint wallet_entries_kind_check;
alter table wallet_entries add constraint wallet_entries_kind_check check (kind in ('recharge', 'payment', 'refund', 'escrow', 'escrow_refund'));
alter table wallet_entries add column escrow_id uuid;
create unique index wallet_entries_escrow_idx on wallet_entries (escrow_id, kind) where escrow_id is not null;
