-- Issue 48 "Notifications at scale": mark-all-read is a read watermark on the user's counter row,
-- not an update of every unread row. Before, marking 10,000 notifications read updated 10,000
-- rows (754 ms) and the unread list afterwards walked their dead index entries (16,995 buffers
-- to return 0 rows until vacuum). Now a notification is read when `read_at` is set (one read:
-- per row, as before) or its id (UUIDv7, time-ordered) is at or below `read_upto` (mark all:
-- the newest id of the user's notifications when it ran, at `read_upto_at`). The unread list is
-- the partial index range (user_id, id > read_upto) where read_at is null, so what was marked
-- read by the watermark is never walked. Null: never marked all read.
alter table notification_counters add column read_upto uuid;
alter table notification_counters add column read_upto_at timestamptz;
