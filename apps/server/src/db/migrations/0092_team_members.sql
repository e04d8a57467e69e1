-- Team members (issue 8, spec §2 Account "team members"): an owner (the company account) invites
-- colleagues by phone; an accepted member's sessions act for the owner with a role.
create table team_members (
  id uuid primary key,
  owner_id uuid not null references users (id) on delete cascade,
  -- the member's own account, set when they accept
  member_user_id uuid references users (id) on delete cascade,
  phone text not null,
  name text not null,
  -- admin | dispatcher | viewer (modules/team/team.access.ts)
  role text not null,
  -- invited | active | declined | removed
  status text not null default 'invited',
  -- who invited / removed (the owner's or an admin member's own user id: the acting person)
  invited_by uuid not null,
  removed_by uuid,
  created_at timestamptz not null default now(),
  accepted_at timestamptz,
  removed_at timestamptz
);
-- one open (invited or active) row per phone per owner
create unique index team_members_owner_phone_open on team_members (owner_id, phone) where status in ('invited', 'active');
-- a person belongs to one team at a time: every authenticated request looks this up
create unique index team_members_active_member on team_members (member_user_id) where status = 'active';
create unique index team_members_active_phone on team_members (phone) where status = 'active';
create index team_members_owner_idx on team_members (owner_id, created_at);
create index team_members_phone_invited on team_members (phone) where status = 'invited';

-- The team's audit trail: who (the acting person's own user id) did what to which member.
create table team_events (
  id uuid primary key,
  owner_id uuid not null references users (id) on delete cascade,
  team_member_id uuid not null references team_members (id) on delete cascade,
  -- invited | role_changed | removed | accepted | declined | left
  type text not null,
  actor_user_id uuid not null,
  data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create index team_events_owner_idx on team_events (owner_id, created_at);
