-- Assignment (issue 7; spec §2 /delivery-tracking/assign-driver): the truck, driver and trailer
-- on a booked shipment, and the carrier's "payment received" date (average days-to-pay).
alter table loads add column vehicle_id uuid references vehicles(id);
alter table loads add column driver_id uuid references drivers(id);
alter table loads add column trailer_id uuid references trailers(id);
alter table loads add column assigned_at timestamptz;
alter table loads add column delivered_at timestamptz;
alter table loads add column payment_received_at timestamptz;
-- a vehicle or driver carries one running shipment at a time
create unique index loads_vehicle_running on loads (vehicle_id) where status in ('assigned', 'pending_bayan');
create unique index loads_driver_running on loads (driver_id) where status in ('assigned', 'pending_bayan');
-- average days-to-pay of a shipper: its paid shipments, newest first
create index loads_shipper_paid on loads (shipper_id, payment_received_at desc) where payment_received_at is not null;
