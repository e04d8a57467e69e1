-- Issue 21: presence in chat, and the clean-up of chat uploads that were never sent.
--
-- account_presence (owned by modules/realtime; docs/realtime.md "Presence"): when an account —
-- an owner, whichever of its team members was connected — was last seen on the real-time
-- channel. Written by the broker when the account's last connection closes and, while it stays
-- connected, at most once a minute; read by primary key (the chat thread's "last seen").
create table account_presence (
  account_id uuid primary key references users(id) on delete cascade,
  last_seen_at timestamptz not null
);

-- files.attached_at (owned by modules/files; docs/chat.md "Attachments"): when a chat attachment
-- was put on a message (set in the sending transaction). The clean-up job deletes the
-- `chat-attachment` files still unattached 24 h after upload; the partial index holds only
-- those, ordered by upload time, so the job reads only what is due.
alter table files add column if not exists attached_at timestamptz;
update files f set attached_at = m.created_at from chat_messages m where m.attachment_id = f.id and f.attached_at is null;
create index if not exists files_unsent_chat_idx on files (created_at) where purpose = 'chat-attachment' and attached_at is null;
