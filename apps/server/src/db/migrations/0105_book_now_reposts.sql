-- Issue 19: Book Now at the posted price, and re-post detection.
--
-- book_now: a verified carrier with a plan books the load at its posted price in one step
-- (POST /bookNow); book_now_for: who may — any verified carrier or only the shipper's own
-- verified vendors (null when the load is not Book Now).
alter table loads add column book_now boolean not null default false;
alter table loads add column book_now_for text;
alter table loads add constraint loads_book_now_for check (
  (book_now and book_now_for in ('verified', 'vendors')) or (not book_now and book_now_for is null)
);

-- reposted_from: the load this one re-posts — the poster won that load (its booked carrier) and
-- posted the same lane with overlapping pickup dates within REPOST_WINDOW_DAYS of booking it.
-- Seen by the operator (npm run admin -- reposts); the original shipper is told (load.reposted).
alter table loads add column reposted_from uuid references loads (id);
-- the admin report (newest first) and the original shipper's flag (exists … where reposted_from = l.id)
create index loads_reposted_from on loads (reposted_from) where reposted_from is not null;
create index loads_reposts_recent on loads (created_at desc, id desc) where reposted_from is not null;
