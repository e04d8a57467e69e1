-- Wrong passwords per account in a sliding window (issue 2, DESIGN §3 security by default): the
-- per-IP limit does not stop a password guesser spread over many addresses; this does. Only the
-- password path is throttled: sign-in by SMS code keeps working for the real owner.
alter table users add column failed_logins integer not null default 0;
alter table users add column failed_login_window_at timestamptz;
