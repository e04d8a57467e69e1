-- Issue 21 "Chat" (spec §1 chat, §3 chat credentials). Owned by modules/chat.
--
-- A conversation is about one load between its shipper-or-broker side (the load's owner) and one
-- carrier side (a carrier or broker with an offer, a tender invite or the booking on it): one row
-- per (load, shipper, carrier), so opening it twice — or thirty times at once — finds the same row.
-- Sides are accounts (a team member acts for its owner, as everywhere in the product).
--
-- Unread counts without scanning: every message takes the next `last_seq` of its conversation
-- (the send updates the row, which also orders racing sends), and each side keeps the `seq` it
-- has read up to. A side's unread count is `last_seq - <side>_read_seq`; sending a message reads
-- everything before it. The other side's read position is the read receipt.
create table chat_conversations (
  id uuid primary key,
  load_id uuid not null references loads(id),
  shipper_id uuid not null references users(id),
  carrier_id uuid not null references users(id),
  created_at timestamptz not null default now(),
  -- the last message's time (the creation time until the first message): the list's order
  last_at timestamptz not null default now(),
  last_message_id uuid,
  last_seq integer not null default 0,
  shipper_read_seq integer not null default 0,
  carrier_read_seq integer not null default 0,
  shipper_read_at timestamptz,
  carrier_read_at timestamptz,
  constraint chat_conversations_parties unique (load_id, shipper_id, carrier_id),
  constraint chat_conversations_two_sides check (shipper_id <> carrier_id),
  constraint chat_conversations_read check (shipper_read_seq between 0 and last_seq and carrier_read_seq between 0 and last_seq)
);
-- my conversations by last message, newest first (keyset on last_at, id), one index per side
create index chat_conversations_shipper_idx on chat_conversations (shipper_id, last_at desc, id desc);
create index chat_conversations_carrier_idx on chat_conversations (carrier_id, last_at desc, id desc);
-- the header's total: only the conversations with something unread for that side
create index chat_conversations_shipper_unread_idx on chat_conversations (shipper_id) where last_seq > shipper_read_seq;
create index chat_conversations_carrier_unread_idx on chat_conversations (carrier_id) where last_seq > carrier_read_seq;

-- A message (uuid v7 id). `sender_id` is the side's account, `author_id` the person who typed it
-- (a team member acting for the account, or the account itself). `attachment_id`: an uploaded file
-- (images, PDF) kept by the files module; no foreign key, as the other cross-module references.
create table chat_messages (
  id uuid primary key,
  conversation_id uuid not null references chat_conversations(id),
  seq integer not null,
  sender_id uuid not null,
  author_id uuid not null,
  body text not null,
  attachment_id uuid,
  created_at timestamptz not null default now(),
  constraint chat_messages_body check (char_length(body) between 1 and 2000),
  -- a conversation's messages by time, newest first (keyset on seq)
  constraint chat_messages_seq unique (conversation_id, seq)
);
