-- Business verification (issue 8): the documents of an account and its review.
create table verification_documents (
  user_id uuid not null references users (id) on delete cascade,
  type text not null,
  file_id uuid not null,
  -- submitted | approved | rejected
  state text not null default 'submitted',
  reason text,
  updated_at timestamptz not null default now(),
  primary key (user_id, type)
);

-- One row per account once it sends its documents for review; the operator's decision lands here.
create table verification_reviews (
  user_id uuid primary key references users (id) on delete cascade,
  submitted_at timestamptz,
  decided_at timestamptz,
  -- approved | rejected
  decision text,
  reason text
);
-- the operator's queue: submitted, not decided since
create index verification_reviews_pending_idx on verification_reviews (submitted_at) where decided_at is null or decided_at < submitted_at;
