-- Idempotency keys (issue 6): a create retried with the same Idempotency-Key and body within 24 h
-- returns the first response and writes nothing. Kept in the database so the rule holds across
-- instances. `scope` is the caller (user id, guest session, or client IP for public routes).
create table idempotency_keys (
  scope text not null,
  key text not null,
  request_hash text not null,
  status_code integer,
  content_type text,
  response_body text,
  created_at timestamptz not null default now(),
  primary key (scope, key)
);
create index idempotency_keys_created_idx on idempotency_keys (created_at);
