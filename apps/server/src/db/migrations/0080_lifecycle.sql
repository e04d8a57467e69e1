-- One state machine for shipments and offers (issue 7; packages/shared/src/rules/lifecycle.ts).
-- A booked shipment is now `unassigned` until a vehicle with its driver is assigned; `assigned`
-- means a truck is on it; `pending_bayan` waits for the Bayan service. Offers of a booked
-- shipment that is cancelled become `cancelled`.
alter table loads drop constraint if exists loads_status_check;
update loads set status = 'unassigned' where status = 'assigned';
alter table loads add constraint loads_status_check
  check (status in ('posted','unposted','expired','unassigned','assigned','pending_bayan','completed','cancelled'));

alter table offers drop constraint if exists offers_status_check;
alter table offers add constraint offers_status_check
  check (status in ('pending','accepted','rejected','withdrawn','closed','cancelled'));
