-- Issue 21 "Notifications": stored in-app notifications (docs/notifications.md). Owned by
-- modules/notifications; rows are written only by its outbox handler (`notifications`) and read
-- and marked read by their own user through the API.
--
-- One row per (event, user): the unique key makes a redelivered event insert nothing. No
-- foreign keys to users or loads, on purpose (as account_records, migration 0110): the rows are
-- derived from events inside the drain's transaction, and a foreign-key check would take
-- FOR KEY SHARE on rows the lifecycles lock FOR UPDATE.
create table notifications (
  id uuid primary key,
  -- the person who reads it (an owner, or a team member acting for `account_id`)
  user_id uuid not null,
  account_id uuid not null,
  -- the event type (packages/shared events.ts) and its category (offers, shipments, …)
  type text not null,
  category text not null,
  event_id uuid not null,
  load_id uuid,
  reference_id text,
  -- what the web needs to render the text from i18n keys (price, step, reason …): never prose
  params jsonb not null default '{}'::jsonb,
  -- the screen it opens, for this user's role (/shippers/loads/…)
  link text not null,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  constraint notifications_event_user unique (event_id, user_id)
);
-- the list (cursor paging by id desc), the unread list and the category filter: index ranges
create index notifications_user_idx on notifications (user_id, id desc);
create index notifications_user_unread_idx on notifications (user_id, id desc) where read_at is null;
create index notifications_user_category_idx on notifications (user_id, category, id desc);

-- The unread count of each user, moved in the same transaction (and statement) as the insert or
-- the mark-read that changes it: reading it is one primary-key lookup, never a count.
create table notification_counters (
  user_id uuid primary key,
  unread integer not null default 0 check (unread >= 0)
);

-- Preferences: per category × channel (inApp, email, sms, push), quiet hours (Riyadh wall-clock
-- "HH:MM", both or neither) and the e-mail digest interval. No row: the defaults.
create table notification_preferences (
  user_id uuid primary key,
  channels jsonb not null,
  quiet_from text,
  quiet_to text,
  digest_minutes integer not null default 15 check (digest_minutes between 1 and 1440),
  updated_at timestamptz not null default now()
);

-- E-mails waiting to go out: one row per (event, user) whose category has e-mail on. The flush
-- job sends every due row of a (user, category) in one e-mail and stamps sent_at; `due_at` keeps
-- the digest interval and the quiet hours.
create table notification_emails (
  id uuid primary key,
  user_id uuid not null,
  category text not null,
  type text not null,
  event_id uuid not null,
  reference_id text,
  params jsonb not null default '{}'::jsonb,
  link text not null,
  due_at timestamptz not null,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  constraint notification_emails_event_user unique (event_id, user_id)
);
create index notification_emails_due_idx on notification_emails (due_at) where sent_at is null;
create index notification_emails_user_category_idx on notification_emails (user_id, category, sent_at desc);
-- sent e-mails are kept only as long as the digest needs their time (at most a day): pruned by the flush job
create index notification_emails_sent_idx on notification_emails (sent_at) where sent_at is not null;
