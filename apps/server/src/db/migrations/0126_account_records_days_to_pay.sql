-- A shipper's measured days-to-pay on every load row (issue 23: the results table's shipper
-- column shows what the shipper really does, not only its stated terms; issue 19: "on a shipper:
-- days-to-pay (already measured)"). The mean days from delivery to payment received over the
-- shipper's newest 50 paid shipments (DAYS_TO_PAY_WINDOW), one decimal, and how many it averages.
-- Kept in the fact-based record (modules/records), refreshed by its outbox consumer on
-- load.payment_received from index loads_shipper_paid (≤ 50 rows); a load row reads it by
-- primary key. Null / 0: nothing paid yet.
alter table account_records add column if not exists days_to_pay numeric(6, 1);
alter table account_records add column if not exists paid_shipments integer not null default 0;

-- what is already paid (one pass at migration time)
insert into account_records (account_id, days_to_pay, paid_shipments)
select shipper_id, round(avg(extract(epoch from (payment_received_at - delivered_at)) / 86400)::numeric, 1), count(*)::int
  from (select shipper_id, payment_received_at, delivered_at,
               row_number() over (partition by shipper_id order by payment_received_at desc) as rn
          from loads
         where payment_received_at is not null and delivered_at is not null and deleted_at is null) w
 where rn <= 50
 group by shipper_id
on conflict (account_id) do update set days_to_pay = excluded.days_to_pay, paid_shipments = excluded.paid_shipments;
