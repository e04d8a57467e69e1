-- The board at national scale (issue 10).

-- My loads by tab from the owner's own rows: every tab is a union of (shipper or carrier,
-- status) branches, each walked newest first on one of these indexes, so a tab page and its
-- capped count read O(page + cap) entries whatever the size of the owner or of the table.
-- The sort key is the one of GET /my-loads: coalesce(posted_at, created_at) desc, id desc.
create index loads_owner_tab on loads (shipper_id, status, (coalesce(posted_at, created_at)) desc, id desc)
  include (expires_at) where deleted_at is null;
create index loads_carrier_tab on loads (carrier_id, status, (coalesce(posted_at, created_at)) desc, id desc)
  include (expires_at) where carrier_id is not null and deleted_at is null;
-- posted loads past their expiry that the expiry job has not flipped yet ("finished" tab)
create index loads_owner_expiry on loads (shipper_id, expires_at) where status = 'posted' and deleted_at is null;
-- "my open loads with pending offers" starts from the offers, not from the owner's loads
create index offers_shipper_pending on offers (shipper_id, load_id) where status = 'pending';
-- loads_owner_tab has the same leading columns and predicate
drop index if exists loads_shipper;

-- The board version (issue 10, result cache): one row, bumped in the same transaction as every
-- write that takes a load off the board or changes what it shows (book, cancel, unpost, expire,
-- edit). A cached search page is served only while the version it was computed under is current.
create table board_version (
  id smallint primary key default 1 check (id = 1),
  v bigint not null default 0
);
insert into board_version (id, v) values (1, 0);
