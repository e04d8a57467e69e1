-- Issue 48: every call leaves one line in its conversation (docs/calls.md "The line in the
-- conversation"). Owned by modules/chat; the calls module writes it through the chat module's
-- port in the transaction of the call's ending transition.
--
-- A call line has no text (the web writes it in the reader's language and digits from these
-- columns): the call, its type, how it ended and, for an answered call, how long it lasted. The
-- unique index gives a call one line at most, even if two endings raced past the transition.
alter table chat_messages add column call_id uuid;
alter table chat_messages add column call_type text;
alter table chat_messages add column call_outcome text;
alter table chat_messages add column call_duration_seconds integer;
alter table chat_messages drop constraint chat_messages_body;
alter table chat_messages add constraint chat_messages_body
  check (char_length(body) <= 2000 and (char_length(body) >= 1 or attachment_id is not null or call_id is not null));
alter table chat_messages add constraint chat_messages_call
  check (call_id is null or (call_type in ('audio', 'video') and call_outcome in ('missed', 'declined', 'ended')
    and (call_duration_seconds is null or call_duration_seconds >= 0)));
create unique index chat_messages_call_idx on chat_messages (call_id) where call_id is not null;
