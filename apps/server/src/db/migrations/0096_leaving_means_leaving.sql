-- Leaving means leaving (issue 22).
-- Who made an API key or a webhook endpoint: the acting person's own user id (a team member acting
-- for the owner, or the owner). Removing a member (or a member leaving) revokes the keys and
-- deletes the endpoints they made, and a key made by a member acts under that member's current
-- team role. Rows made before this migration have no maker (null): they stay the owner's.
alter table api_keys add column if not exists created_by uuid references users(id);
alter table webhook_endpoints add column if not exists created_by uuid references users(id);
create index if not exists api_keys_created_by on api_keys (owner_id, created_by) where revoked_at is null;
create index if not exists webhook_endpoints_created_by on webhook_endpoints (owner_id, created_by) where deleted_at is null;
-- A driver's link generation: every job link and trip token carries the generation it was made
-- under; suspending or deleting the driver moves it on, so the links and trip tokens made before
-- stay dead when the driver is reactivated.
alter table drivers add column if not exists link_generation integer not null default 0;
