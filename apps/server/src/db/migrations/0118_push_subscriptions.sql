-- Issue 21 "Notifications", web push (docs/notifications.md "Web push"). Owned by
-- modules/notifications.
--
-- A browser's push subscription (spec §7 /topics/subscribe: the device token and the account
-- topic). The endpoint is the push service's URL for that browser: unique, so the browser a new
-- user signs in on moves to that user (the subscribe call is an upsert on it). `p256dh`/`auth`
-- are the keys the payload is encrypted to (RFC 8291). A push service answering 404/410 means the
-- subscription is gone: the row is deleted. No foreign keys (as the other notification tables).
create table push_subscriptions (
  id uuid primary key,
  endpoint text not null,
  p256dh text not null,
  auth text not null,
  -- the person signed in on that browser, and the account whose topic it follows (theirs, or the owner's for a team member)
  user_id uuid not null,
  account_id uuid not null,
  user_agent text,
  created_at timestamptz not null default now(),
  last_success_at timestamptz,
  constraint push_subscriptions_endpoint unique (endpoint)
);
-- the sender looks up a notification's (user, account) subscriptions
create index push_subscriptions_user_idx on push_subscriptions (user_id, account_id);

-- Pushes waiting to go out: one row per (event, user) whose category has push on, queued by the
-- notifications outbox handler in the drain's transaction (a redelivered event queues nothing)
-- and sent by the push sender outside any request. `due_at` keeps the quiet hours; a failed send
-- is retried (`attempts`) until it is given up; `claimed_until` keeps two senders apart. Sent (or
-- given up) rows keep `sent_at` for two days, so a redelivered event finds its row and sends
-- nothing again, then are pruned by the sender.
create table notification_pushes (
  id uuid primary key,
  user_id uuid not null,
  account_id uuid not null,
  category text not null,
  type text not null,
  event_id uuid not null,
  load_id uuid,
  reference_id text,
  params jsonb not null default '{}'::jsonb,
  link text not null,
  due_at timestamptz not null,
  claimed_until timestamptz,
  attempts integer not null default 0,
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  constraint notification_pushes_event_user unique (event_id, user_id)
);
create index notification_pushes_due_idx on notification_pushes (due_at) where sent_at is null;
create index notification_pushes_sent_idx on notification_pushes (sent_at) where sent_at is not null;
