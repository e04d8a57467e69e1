-- Issue 21 "Calls" (spec §3 call state, §4 call events, §7 /meetings/v1/*). Owned by modules/calls.
--
-- A one-to-one audio or video call about a load, between the two accounts of a chat
-- conversation (the caller's side rings the other side). Media flows peer to peer (WebRTC); this
-- row is the call's state: ringing → active → ended, or ringing → missed (the caller hung up, or
-- nobody answered within 45 s) or declined. `caller_user_id` is the person who called (a team
-- member acting for its account, or the account itself); `answered_by` the person who answered.
create table calls (
  id uuid primary key,
  conversation_id uuid not null references chat_conversations(id),
  load_id uuid not null references loads(id),
  caller_id uuid not null references users(id),
  caller_user_id uuid not null,
  callee_id uuid not null references users(id),
  type text not null,
  status text not null default 'ringing',
  caller_device_id text,
  answered_by uuid,
  answered_device_id text,
  created_at timestamptz not null default now(),
  answered_at timestamptz,
  ended_at timestamptz,
  end_reason text,
  constraint calls_type check (type in ('audio', 'video')),
  constraint calls_status check (status in ('ringing', 'active', 'ended', 'missed', 'declined')),
  constraint calls_end_reason check (end_reason is null or end_reason in ('cancelled', 'timeout', 'declined', 'hangup')),
  constraint calls_two_sides check (caller_id <> callee_id),
  constraint calls_ended check ((status in ('ringing', 'active')) = (ended_at is null))
);
-- at most one ringing-or-active call per conversation: of racing calls one inserts, the others conflict
create unique index calls_live_conversation_idx on calls (conversation_id) where status in ('ringing', 'active');
-- the ring-time sweep walks only the ringing calls
create index calls_ringing_idx on calls (created_at) where status = 'ringing';
-- a conversation's calls, newest first
create index calls_conversation_idx on calls (conversation_id, created_at desc);

-- The line each account holds while in a ringing or active call: an account is in at most one
-- call at a time ("busy"). A call takes both accounts' lines in its transaction; a line already
-- taken (the primary key) rolls the new call back with CALL_BUSY, also when two calls race.
-- The line goes when the call ends.
create table call_lines (
  account_id uuid primary key references users(id),
  call_id uuid not null references calls(id)
);
create index call_lines_call_idx on call_lines (call_id);
