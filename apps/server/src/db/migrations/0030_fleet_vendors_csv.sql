-- Fleet management, my vendors, uploaded files and CSV import logs (issue 3; spec §3, §4, §5).
-- Every row has owner_id (users.id): a user only ever sees or changes their own rows.
-- Arrays are jsonb (same shape on PGlite and PostgreSQL 15, easy to bulk insert).

create table files (
  id uuid primary key,
  owner_id uuid not null references users(id),
  purpose text not null,
  mime text not null,
  size integer not null check (size > 0),
  name text,
  storage_key text not null,
  created_at timestamptz not null default now()
);
create index files_owner on files(owner_id, created_at desc);

create table vendors (
  id uuid primary key,
  owner_id uuid not null references users(id),
  status text not null default 'verified' check (status in ('request_submitted', 'pending_approval', 'not_verified', 'verified')),
  user_type text not null check (user_type in ('shipper', 'carrier', 'tms')),
  company_name text not null,
  vendor_name text not null,
  phone text not null,
  email text not null,
  job_title text,
  office_locations jsonb not null default '[]',
  notes text,
  cr_number text,
  tl_number text,
  vat_number text,
  payment_terms text,
  shipment_types jsonb not null default '[]',
  regions jsonb not null default '[]',
  preferred_languages jsonb not null default '[]',
  preferred_contact_method text,
  number_of_trucks integer,
  number_of_trailers integer,
  fleet_size integer,
  fleet_types jsonb not null default '[]',
  equipment_types jsonb not null default '[]',
  service_area text,
  insurance text,
  rate_agreement text,
  past_experience text,
  payment_history text,
  customs_clearance boolean not null default false,
  document_file_ids jsonb not null default '[]',
  -- how the row came in: owner (form), invite (share link), csv
  origin text not null default 'owner',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
-- spec §5: vendor e-mail and phone unique (per owner); rejected requests do not block.
create unique index vendors_owner_email on vendors(owner_id, lower(email)) where deleted_at is null and status <> 'not_verified';
create unique index vendors_owner_phone on vendors(owner_id, phone) where deleted_at is null and status <> 'not_verified';
create index vendors_owner_created on vendors(owner_id, created_at desc) where deleted_at is null;

create table drivers (
  id uuid primary key,
  owner_id uuid not null references users(id),
  salutation text not null,
  first_name text not null,
  last_name text not null,
  nationality text not null,
  date_of_birth date not null,
  photo_file_id uuid references files(id),
  phone text not null,
  manager_name text,
  manager_phone text,
  licence_number text not null,
  driver_id_number text not null,
  iqama_issue_count integer check (iqama_issue_count between 1 and 100),
  company_cr text,
  moi_number text,
  iqama_file_ids jsonb not null default '[]',
  licence_file_ids jsonb not null default '[]',
  state text not null default 'active' check (state in ('active', 'suspended', 'deleted')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- spec §5: MOI number unique (platform-wide, it identifies a person).
create unique index drivers_moi_unique on drivers(moi_number) where state <> 'deleted' and moi_number is not null;
create unique index drivers_owner_id_number on drivers(owner_id, driver_id_number) where state <> 'deleted';
create index drivers_owner_created on drivers(owner_id, created_at desc);

create table trailers (
  id uuid primary key,
  owner_id uuid not null references users(id),
  trailer_type text not null,
  trailer_number text not null,
  length_cm numeric(8,2) not null check (length_cm between 500 and 2000),
  breadth_cm numeric(8,2) not null check (breadth_cm between 200 and 500),
  capacity_kg numeric(10,2) not null check (capacity_kg between 1000 and 50000),
  supported_vehicle_types jsonb not null default '[]',
  state text not null default 'active' check (state in ('active', 'suspended', 'deleted')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index trailers_owner_number on trailers(owner_id, trailer_number) where state <> 'deleted';
create index trailers_owner_created on trailers(owner_id, created_at desc);

create table vehicles (
  id uuid primary key,
  owner_id uuid not null references users(id),
  vehicle_type text not null references equipment_types(code),
  year integer not null,
  make text not null,
  model text not null,
  colour text not null,
  plate_type smallint not null,
  plate_digits text not null,
  -- canonical Arabic letters left, middle, right (3 characters)
  plate_letters text not null,
  registration_number text,
  sequence_number text not null,
  imei text,
  weight_kg numeric(10,2) not null check (weight_kg > 0 and weight_kg <= 45000),
  wasl_status text not null default 'not_submitted' check (wasl_status in ('not_submitted', 'not_required', 'verified', 'not_verified')),
  state text not null default 'active' check (state in ('active', 'suspended', 'deleted')),
  availability text not null default 'free' check (availability in ('free', 'busy')),
  source text not null default 'own' check (source in ('own', 'vendor')),
  vendor_id uuid references vendors(id),
  driver_id uuid references drivers(id),
  trailer_id uuid references trailers(id),
  insurance_file_ids jsonb not null default '[]',
  image_file_ids jsonb not null default '[]',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- spec §5 "duplicate plates rejected": one live vehicle per plate on the whole platform.
create unique index vehicles_plate_unique on vehicles(plate_digits, plate_letters) where state <> 'deleted';
-- a driver drives, and a trailer hangs on, at most one live vehicle
create unique index vehicles_driver_unique on vehicles(driver_id) where state <> 'deleted' and driver_id is not null;
create unique index vehicles_trailer_unique on vehicles(trailer_id) where state <> 'deleted' and trailer_id is not null;
create index vehicles_owner_created on vehicles(owner_id, created_at desc);

create table trusted_drivers (
  owner_id uuid not null references users(id),
  driver_id uuid not null references drivers(id),
  created_at timestamptz not null default now(),
  primary key (owner_id, driver_id)
);

create table csv_logs (
  id uuid primary key,
  owner_id uuid not null references users(id),
  type text not null check (type in ('vendors', 'drivers', 'vehicles', 'trailers', 'shipments')),
  file_name text,
  status text not null default 'processing' check (status in ('processing', 'completed', 'failed')),
  total integer not null default 0,
  succeeded integer not null default 0,
  failed integer not null default 0,
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index csv_logs_owner_created on csv_logs(owner_id, created_at desc);

-- failed rows only: raw cells (by field key) and error keys/codes, localized at read time
create table csv_log_rows (
  id uuid primary key,
  log_id uuid not null references csv_logs(id) on delete cascade,
  row_number integer not null,
  data jsonb not null,
  errors jsonb not null,
  created_at timestamptz not null default now()
);
create index csv_log_rows_log on csv_log_rows(log_id, row_number);
