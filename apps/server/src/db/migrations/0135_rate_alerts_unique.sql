-- Issue 46: identical rate alerts are refused, like saved searches (DUPLICATE_RATE_ALERT). One
-- alert per account, lane (origin, destination), equipment, kind, direction, threshold and unit —
-- the same change would otherwise send two e-mails. Existing duplicates keep their oldest alert.
delete from rate_alerts a using rate_alerts b
 where a.account_id = b.account_id and a.origin_city_id = b.origin_city_id and a.destination_city_id = b.destination_city_id
   and a.equipment = b.equipment and a.kind = b.kind and a.direction = b.direction and a.threshold = b.threshold and a.unit = b.unit
   and (a.created_at, a.id) > (b.created_at, b.id);
create unique index rate_alerts_identical on rate_alerts (account_id, origin_city_id, destination_city_id, equipment, kind, direction, threshold, unit);
