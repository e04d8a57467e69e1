-- The ledger (issue 50): double-entry, append-only, amounts in integer halalas.
-- A journal is one movement of money caused by one fact (fact_kind + fact_id, unique: the same
-- fact never posts twice); its postings (two or more) move amounts between accounts and sum to
-- zero. An account is (owner_id, account): owner_id an account's user id, or null for the
-- platform's own accounts. A balance is the sum of an account's postings (ledger_balances).
-- Sign: a posting's amount is what it adds to its account's balance.

create table ledger_journals (
  id uuid primary key,
  fact_kind text not null check (fact_kind ~ '^[a-z][a-z_.]*$'),
  fact_id text not null check (length(fact_id) between 1 and 200),
  memo text not null default '',
  created_at timestamptz not null default now(),
  constraint ledger_journals_fact unique (fact_kind, fact_id)
);

create table ledger_postings (
  id bigint generated always as identity primary key,
  journal_id uuid not null references ledger_journals (id),
  owner_id uuid,
  account text not null check (account in ('wallet', 'escrow_held', 'payable', 'receivable', 'platform_fees', 'vat', 'funding', 'payouts')),
  currency text not null default 'SAR' check (currency = 'SAR'),
  amount_halalas bigint not null check (amount_halalas <> 0)
);
create index ledger_postings_journal_idx on ledger_postings (journal_id);
create index ledger_postings_account_idx on ledger_postings (owner_id, account) include (amount_halalas);

-- Append-only: entries are never changed or removed (a correction is a new journal).
create function ledger_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'ledger entries are append-only (% on %)', tg_op, tg_table_name using errcode = '55000';
end $$;
create trigger ledger_journals_append_only before update or delete on ledger_journals
  for each row execute function ledger_append_only();
create trigger ledger_postings_append_only before update or delete on ledger_postings
  for each row execute function ledger_append_only();
create trigger ledger_journals_no_truncate before truncate on ledger_journals
  for each statement execute function ledger_append_only();
create trigger ledger_postings_no_truncate before truncate on ledger_postings
  for each statement execute function ledger_append_only();

-- Balanced at commit: a deferred constraint trigger checks every journal written in the
-- transaction has at least two postings that sum to zero per currency, however they were inserted.
create function ledger_check_balanced() returns trigger language plpgsql as $$
declare
  jid uuid;
  n int;
  unbalanced int;
begin
  if tg_table_name = 'ledger_journals' then jid := new.id; else jid := new.journal_id; end if;
  select count(*) into n from ledger_postings where journal_id = jid;
  if n < 2 then
    raise exception 'ledger journal % has % posting(s); a journal needs at least two', jid, n using errcode = '23514';
  end if;
  select count(*) into unbalanced from (
    select currency from ledger_postings where journal_id = jid group by currency having sum(amount_halalas) <> 0
  ) u;
  if unbalanced > 0 then
    raise exception 'ledger journal % does not balance', jid using errcode = '23514';
  end if;
  return null;
end $$;
create constraint trigger ledger_journals_balanced after insert on ledger_journals
  deferrable initially deferred for each row execute function ledger_check_balanced();
create constraint trigger ledger_postings_balanced after insert on ledger_postings
  deferrable initially deferred for each row execute function ledger_check_balanced();

-- The one way the server posts: a journal and its postings in one statement, checked at once
-- (the deferred trigger checks again at commit). Returns the journal's id, or null when the fact
-- was already posted (idempotent; the first posting stands).
-- p_postings: [{ "owner": uuid|null, "account": text, "amount": integer halalas }, ...]
create function ledger_post(p_id uuid, p_fact_kind text, p_fact_id text, p_memo text, p_postings jsonb)
returns uuid language plpgsql as $$
declare
  total numeric;
  n int;
begin
  select count(*), coalesce(sum((p ->> 'amount')::bigint), 0) into n, total from jsonb_array_elements(p_postings) p;
  if n < 2 or total <> 0 then
    raise exception 'ledger_post: % posting(s) summing to % (need >= 2 summing to 0)', n, total using errcode = '23514';
  end if;
  insert into ledger_journals (id, fact_kind, fact_id, memo) values (p_id, p_fact_kind, p_fact_id, coalesce(p_memo, ''))
    on conflict (fact_kind, fact_id) do nothing;
  if not found then return null; end if;
  insert into ledger_postings (journal_id, owner_id, account, amount_halalas)
    select p_id, nullif(p ->> 'owner', '')::uuid, p ->> 'account', (p ->> 'amount')::bigint
    from jsonb_array_elements(p_postings) p;
  return p_id;
end $$;

-- Balances are sums of postings, never a stored number.
create view ledger_balances as
  select owner_id, account, currency, sum(amount_halalas)::bigint as balance_halalas, count(*)::bigint as postings
  from ledger_postings group by owner_id, account, currency;
