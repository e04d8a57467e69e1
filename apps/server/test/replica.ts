import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** A streaming replica (hot standby) of the test PostgreSQL, or why there is none. */
export type Replica = { port: number; urlOf(primaryUrl: string): string; log(): string; stop(): Promise<void> } | { skip: string };

/** Prefix of the physical replication slots this helper creates (one per replica). */
const SLOT_PREFIX = 'masar_test_replica_';

/**
 * Make a real streaming replica of the PostgreSQL at `primaryUrl` for the read-replica tests
 * (issue 10): pg_basebackup -R (standby.signal + primary_conninfo) into a temp directory, then
 * pg_ctl start on a free port, as the `postgres` OS user when running as root. Needs the
 * primary to accept replication connections from 127.0.0.1 (pg_hba `host replication …`,
 * wal_level ≥ replica, max_wal_senders > 0; `.ci/run` allows it) and the server's own
 * binaries under /usr/lib/postgresql/<major>/bin. Anything missing: `{ skip: reason }`.
 *
 * The replica streams through a physical replication slot (pg_basebackup -C -S), so the primary
 * keeps every WAL segment until the replica has it. Without one (Debian: wal_keep_size = 0) the
 * other test workers' CREATE DATABASE … TEMPLATE, which WAL-logs whole databases, made the primary
 * recycle segments the lagging replica still needed; it then never caught up (CI, stop 42). A slot
 * left by a killed run is dropped on the next start (inactive `masar_test_replica_%`), and
 * `stop()` drops its own.
 */
export async function startReplica(primaryUrl: string): Promise<Replica> {
  const admin = new pg.Client({ connectionString: primaryUrl });
  await admin.connect();
  let major: number;
  let port: number;
  try {
    const [r] = (
      await admin.query<{ v: string; wal: string; senders: string; host: string; port: string }>(
        `select current_setting('server_version_num') as v, current_setting('wal_level') as wal,
                current_setting('max_wal_senders') as senders, inet_server_addr()::text as host, current_setting('port') as port`,
      )
    ).rows;
    major = Math.floor(Number(r.v) / 10000);
    if (r.wal === 'minimal' || Number(r.senders) < 1) return { skip: `the primary has wal_level=${r.wal}, max_wal_senders=${r.senders}` };
    if (!r.host?.startsWith('127.0.0.1')) return { skip: `the primary is not on 127.0.0.1 (${r.host})` };
    port = Number(r.port);
    // a slot from a run that was killed before stop() would hold WAL on the primary for ever
    await admin.query(`select pg_drop_replication_slot(slot_name) from pg_replication_slots where slot_name like $1 and not active`, [`${SLOT_PREFIX}%`]);
  } finally {
    await admin.end();
  }
  const bin = `/usr/lib/postgresql/${major}/bin`;
  if (!existsSync(join(bin, 'pg_basebackup')) || !existsSync(join(bin, 'pg_ctl'))) return { skip: `no pg_basebackup / pg_ctl in ${bin}` };
  const root = process.getuid?.() === 0;
  const pgUser = root ? spawnSync('id', ['-u', 'postgres']) : null;
  if (root && pgUser?.status !== 0) return { skip: 'running as root without a postgres OS user to run the replica' };
  const as = (cmd: string, args: string[]) => (root ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]) as [string, string[]];
  const dir = mkdtempSync(join(tmpdir(), 'masar-replica-'));
  const pgUid = root ? Number(String(pgUser!.stdout).trim()) : -1;
  if (root) chownSync(dir, pgUid, statSync('/').gid);
  const replicaPort = 20000 + Math.floor(Math.random() * 20000);
  const slot = `${SLOT_PREFIX}${process.pid}_${replicaPort}`;
  const backup = spawnSync(
    ...as(join(bin, 'pg_basebackup'), [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'postgres',
      '-D',
      dir,
      '-R',
      '-X',
      'stream',
      '-C',
      '-S',
      slot,
      '-c',
      'fast',
    ]),
    {
      encoding: 'utf8',
    },
  );
  // slots are the cluster's, not a database's: drop it from the maintenance database, since the
  // test's own database is gone by the time the replica stops
  const maintenance = new URL(primaryUrl);
  maintenance.pathname = '/postgres';
  // The primary's walsender notices a stopped replica a moment later and holds the slot until then
  // (dropping an active slot throws): wait up to 10 s for it to let go. A slot still held after
  // that is left to the next start's cleanup rather than failing the test that stopped it.
  const dropSlot = async () => {
    const c = new pg.Client({ connectionString: maintenance.toString() });
    await c.connect();
    try {
      for (let i = 0; i < 50; i++) {
        const [r] = (await c.query<{ active: boolean }>('select active from pg_replication_slots where slot_name = $1', [slot])).rows;
        if (!r) return;
        if (!r.active) {
          await c.query('select pg_drop_replication_slot($1)', [slot]);
          return;
        }
        await new Promise((done) => setTimeout(done, 200));
      }
    } finally {
      await c.end();
    }
  };
  if (backup.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    await dropSlot();
    return { skip: `pg_basebackup failed (does pg_hba.conf allow replication from 127.0.0.1?): ${backup.stderr.trim().split('\n').pop()}` };
  }
  // Debian keeps postgresql.conf and pg_hba.conf in /etc, outside the data directory that
  // pg_basebackup copies: the replica gets its own (settings on the command line below)
  writeFileSync(join(dir, 'postgresql.conf'), '# streaming replica of the test PostgreSQL (apps/server/test/replica.ts)\n');
  writeFileSync(join(dir, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
  writeFileSync(join(dir, 'pg_ident.conf'), '');
  if (root) for (const f of ['postgresql.conf', 'pg_hba.conf', 'pg_ident.conf']) chownSync(join(dir, f), pgUid, statSync(dir).gid);
  const logTail = (lines: number) =>
    existsSync(join(dir, 'replica.log')) ? readFileSync(join(dir, 'replica.log'), 'utf8').trim().split('\n').slice(-lines) : [];
  const opts = `-p ${replicaPort} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c hot_standby=on -c hot_standby_feedback=on`;
  const start = spawnSync(...as(join(bin, 'pg_ctl'), ['-D', dir, '-o', opts, '-l', join(dir, 'replica.log'), '-w', '-t', '120', 'start']), {
    encoding: 'utf8',
  });
  if (start.status !== 0) {
    const log = logTail(3).join(' / ');
    rmSync(dir, { recursive: true, force: true });
    await dropSlot();
    return { skip: `the replica did not start: ${start.stderr.trim() || start.stdout.trim()} ${log}` };
  }
  return {
    port: replicaPort,
    urlOf: (url) => {
      const u = new URL(url);
      u.port = String(replicaPort);
      return u.toString();
    },
    log: () => logTail(20).join('\n'),
    stop: async () => {
      execFileSync(...as(join(bin, 'pg_ctl'), ['-D', dir, '-m', 'immediate', '-w', 'stop']), { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
      await dropSlot();
    },
  };
}
