-- Issue 21 "Chat" attachments (docs/chat.md). Owned by modules/chat.
--
-- A message may carry one attachment (a file of the files module, purpose `chat-attachment`,
-- image or PDF, typed by magic bytes) and then needs no text. A file is sent once: the unique
-- index makes a second message with the same file fail even when two sends race, and it is how
-- the download route finds the message (and so the conversation) of a file.
alter table chat_messages drop constraint chat_messages_body;
alter table chat_messages add constraint chat_messages_body
  check (char_length(body) <= 2000 and (char_length(body) >= 1 or attachment_id is not null));
create unique index chat_messages_attachment_idx on chat_messages (attachment_id) where attachment_id is not null;
