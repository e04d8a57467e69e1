-- A board cache that survives writes (issue 24). The one global board version (0070) emptied the
-- whole page cache on every board write; versions now live per pickup PLACE and equipment, so a
-- write invalidates only the pages it can change (docs/load-board.md, "Result cache").
--
-- A row counts the board writes to loads picked up in one place:
--   kind 0: one pickup city (x = city id, y = 0)
--   kind 1, 2, 3: one grid cell of 0.5°, 2° or 8° (x = floor(lng / size), y = floor(lat / size))
--   kind 9: the whole board (x = y = 0)
-- for one equipment type, or '' for every equipment. A write to a load bumps, as the LAST
-- statement of its transaction, the rows of its pickup city (old and new on an edit) at every
-- kind, for '' and for its equipment. A cached page records the SUM of the rows its search
-- covers (its city, the cells of the circle's bounding box at one level, or the whole board): the
-- counters only grow, so the sum changes exactly when one of them does.
create table board_versions (
  kind smallint not null check (kind in (0, 1, 2, 3, 9)),
  equipment text not null,
  y integer not null,
  x integer not null,
  v bigint not null default 0,
  primary key (kind, equipment, y, x)
);

drop table board_version;
