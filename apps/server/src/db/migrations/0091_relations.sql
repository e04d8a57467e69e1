-- Favourites, blocked users and contact settings (issue 8; spec §2 Account, §6, §7 /account/favourite, /account/blocked).
-- A favourite: user_id has starred target_id (at most 1,000 per user, checked by the service under a lock).
create table user_favourites (
  user_id uuid not null references users (id) on delete cascade,
  target_id uuid not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (user_id, target_id),
  check (user_id <> target_id)
);
-- the list, newest first (keyset on created_at, target_id)
create index user_favourites_list_idx on user_favourites (user_id, created_at desc, target_id desc);
-- who has favourited me (the contact setting `favourites`)
create index user_favourites_target_idx on user_favourites (target_id, user_id);

-- A block hides the pair from each other in both directions (board, details, offers, contact).
create table user_blocks (
  blocker_id uuid not null references users (id) on delete cascade,
  blocked_id uuid not null references users (id) on delete cascade,
  reason text,
  created_at timestamptz not null default now(),
  primary key (blocker_id, blocked_id),
  check (blocker_id <> blocked_id)
);
create index user_blocks_list_idx on user_blocks (blocker_id, created_at desc, blocked_id desc);
-- who blocked me: the other half of a viewer's hidden set
create index user_blocks_blocked_idx on user_blocks (blocked_id, blocker_id);

-- Who may reach me by chat, audio call, video call (no row: every channel `counterparts`).
create table contact_settings (
  user_id uuid primary key references users (id) on delete cascade,
  chat text not null default 'counterparts' check (chat in ('everyone', 'favourites', 'counterparts', 'nobody')),
  audio text not null default 'counterparts' check (audio in ('everyone', 'favourites', 'counterparts', 'nobody')),
  video text not null default 'counterparts' check (video in ('everyone', 'favourites', 'counterparts', 'nobody')),
  updated_at timestamptz not null default now()
);
