-- WASL (issue 7; spec §3, §4): drivers get a WASL status like vehicles (not_submitted until sent,
-- then verified / not_verified with the reasons WASL gave); vehicles keep the reasons too.
alter table drivers add column wasl_status text not null default 'not_submitted'
  check (wasl_status in ('not_submitted', 'not_required', 'verified', 'not_verified'));
alter table drivers add column wasl_reasons jsonb not null default '[]';
alter table drivers add column wasl_checked_at timestamptz;
alter table vehicles add column wasl_reasons jsonb not null default '[]';
alter table vehicles add column wasl_checked_at timestamptz;
create index drivers_owner_wasl on drivers (owner_id, wasl_status);
