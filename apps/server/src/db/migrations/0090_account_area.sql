-- The account area (issue 8): business profile, contact info to share, address book.
create table business_profiles (
  user_id uuid primary key references users (id) on delete cascade,
  company_name text not null,
  cr_number text,
  vat_number text,
  fax text,
  website text,
  -- a file of the user (POST /files purpose business-logo), PNG or JPG
  logo_file_id uuid,
  city_id integer,
  district_id bigint,
  -- the structured address of spec §3 (same shape as a stop's address_details)
  address_details jsonb,
  updated_at timestamptz not null default now()
);

-- One row per user once saved: each channel's value and whether it is shown to the other party of a booking.
create table contact_shares (
  user_id uuid primary key references users (id) on delete cascade,
  phone text,
  phone_share boolean not null default false,
  email text,
  email_share boolean not null default false,
  whatsapp text,
  whatsapp_share boolean not null default false,
  office_phone text,
  office_phone_share boolean not null default false,
  updated_at timestamptz not null default now()
);

-- The address book (at most 200 per user, checked by the service under a lock of the user row).
create table saved_addresses (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  label text not null,
  city_id integer not null,
  district_id bigint,
  address text,
  address_details jsonb not null,
  lat double precision not null,
  lng double precision not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index saved_addresses_user_idx on saved_addresses (user_id, lower(label), id);
