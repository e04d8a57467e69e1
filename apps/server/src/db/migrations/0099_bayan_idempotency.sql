-- Bayan creation never files a second permit (issue 22). Masar sends Bayan an Idempotency-Key
-- derived from the load and the creation attempt (the bayan_trips reservation row), so a retry
-- after a crash between Bayan's answer and the commit gets the same trip back. The sandbox
-- honours the key like the real service: one trip per key.
alter table bayan_sandbox_trips add column idempotency_key text;
create unique index bayan_sandbox_trips_idempotency_key on bayan_sandbox_trips (idempotency_key) where idempotency_key is not null;
