-- The contact form stores its messages (issue 18 "Side effects leave the request"). The request
-- inserts the row and publishes contact.message_received in one transaction; an outbox handler
-- sends the e-mail to the support mailbox and the acknowledgement to the sender after commit,
-- stamping support_sent_at / ack_sent_at (so a redelivered event sends nothing twice) and
-- last_error when a send fails. `reference` is what the visitor quotes (e.g. CT-7KQ2MX).
create table contact_messages (
  id uuid primary key,
  reference text not null unique,
  name text not null,
  email text not null,
  phone text,
  topic text not null,
  message text not null,
  lang text not null,
  created_at timestamptz not null default now(),
  support_sent_at timestamptz,
  ack_sent_at timestamptz,
  last_error text
);
