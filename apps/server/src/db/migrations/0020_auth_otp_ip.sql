-- OTP sends are rate-limited per client IP as well as per phone (issue 2): count the recent
-- sends of one IP through an index instead of scanning the table.
create index if not exists otps_ip_created on otps(ip, created_at desc) where ip is not null;
