-- A result cache for the truck board (issue 19: ≥ 500 searches a second). Same shape and rules as
-- board_versions (0102), counted per truck ORIGIN place: a write to a truck post (post, edit,
-- unpost, repost, delete, expire) bumps, as the last statement of its transaction, the rows of its
-- origin city (old and new on an edit) at every kind, for '' and for its equipment. A cached page
-- of GET /searchTrucks records the sum of the rows its search covers (db/place-versions.ts).
create table truck_board_versions (
  kind smallint not null check (kind in (0, 1, 2, 3, 9)),
  equipment text not null,
  y integer not null,
  x integer not null,
  v bigint not null default 0,
  primary key (kind, equipment, y, x)
);
