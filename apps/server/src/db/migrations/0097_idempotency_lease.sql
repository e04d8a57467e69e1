-- Crash-safe Idempotency-Key (issue 22). A request that dies (kill -9, crash) used to leave its
-- key "in progress" for 24 h. Now:
-- - lease_until: the running request renews it (heartbeat); once it has passed with no response,
--   the request is known dead and a retry with the same key may take the key over;
-- - committed_at / journal: every transaction the request committed stamps the key IN THE SAME
--   transaction with its result (journal: {"0": result of the 1st transaction, ...}). A take-over
--   with nothing committed runs the request again; one with committed work replays the journal
--   (the writes are not run again) and reads the original result back from the committed rows.
alter table idempotency_keys
  add column lease_until timestamptz,
  add column committed_at timestamptz,
  add column journal jsonb;
