/**
 * Operator command for account approval (the admin tool itself is outside the product, spec §1):
 *
 *   npm run admin -- approve|reject|suspend|delete --phone +9665XXXXXXXX
 *   npm run admin -- reject-document --phone +9665XXXXXXXX --document vat_certificate --reason "…"
 *   npm run admin -- pending            # accounts waiting for approval
 *   npm run admin -- reposts [--max N]  # loads flagged as re-posts of a won load (issue 19)
 *   npm run admin -- records-backfill   # build the fact-based records from the event history (issue 19)
 *   npm run admin -- dashboards-backfill   # build the dashboards' aggregates from the event history (issue 20)
 *   npm run admin -- rates-backfill     # build the lane rate index from the booking history (issue 20)
 *   npm run admin -- promo --code SUMMER25 --percent 25 [--expires 2026-12-31] [--max 100] [--plans a,b]
 *   npm run admin -- escrow-settle --load <load id> --settle full|partial|refund [--sar 1150.00] --reason "…"
 *   npm run admin -- ledger-balance     # the ledger's trial balance (0 per currency when it balances)
 *
 * It opens the database the server is configured with (DATABASE_URL, else embedded PGlite in
 * DATA_DIR) and applies migrations first. Embedded PGlite allows ONE process per data directory
 * (STACK.md gotcha 7): stop the server before running this against DATA_DIR. On PostgreSQL the
 * server can keep running.
 */
import '../lib/require-node.ts';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import {
  BUSINESS_DOCUMENT_TYPES,
  errorMessage,
  escrowSettleInput,
  isMoneyString,
  normalizeSaudiPhone,
  PLAN_CODES,
  promoCode,
  type BusinessDocumentType,
  type EscrowSettleInput,
} from '@masar/shared';
import { loadConfig } from '../config.ts';
import { createContainer } from '../container.ts';
import { openDatabase } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { AppError } from '../lib/errors.ts';
import { ADMIN_ACTIONS, type AccountAdmin, type AdminAction, type StatusChange } from '../modules/auth/account-admin.service.ts';

export { ADMIN_ACTIONS, type AdminAction, type StatusChange };

const STATUS_NAME: Record<number, string> = { 1: 'pending', 2: 'approved', 3: 'suspended', 4: 'deleted', 5: 'rejected' };
const TYPE_NAME: Record<number, string> = { 1: 'shipper', 2: 'carrier', 3: 'broker' };

/** A mistake of the operator (bad arguments, unknown phone): printed, exit code 1 or 2. */
export class AdminError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
    this.name = 'AdminError';
  }
}

export const USAGE = `Usage:
  npm run admin -- approve|reject|suspend|delete --phone +9665XXXXXXXX
  npm run admin -- reject-document --phone +9665XXXXXXXX --document TYPE --reason "…"
  npm run admin -- pending
  npm run admin -- reposts [--max N]
  npm run admin -- records-backfill
  npm run admin -- dashboards-backfill
  npm run admin -- rates-backfill
  npm run admin -- promo --code CODE (--percent N | --sar AMOUNT) [--expires YYYY-MM-DD] [--max N] [--plans a,b]
  npm run admin -- escrow-settle --load LOAD_ID --settle full|partial|refund [--sar AMOUNT] --reason "…"
  npm run admin -- ledger-balance

  approve  status 2 (approved); the next profile the user loads shows the approval dialog once
  reject   status 5 (documents rejected; the user sees the rejected banner and, on the profile
           approval page, --reason "…" with the documents to upload again)
  reject-document
           status 5 with ONE document rejected for its own --reason (required); the documents
           the user had sent besides it are approved, so only that one is uploaded again.
           TYPE: ${BUSINESS_DOCUMENT_TYPES.join(', ')}
  suspend  status 3 (the user's requests answer ACCOUNT_SUSPENDED; approve again to reactivate)
  delete   status 4 and every session of the account revoked
  pending  list accounts waiting for approval
  reposts  loads flagged as re-posts (newest first, --max N, default 100): the poster had won
           another shipper's load on the same lane and pickup days (a double-brokering red flag)
  records-backfill
           build the accounts' fact-based records (docs/account-record.md) from the shipment
           events already in the outbox; events already counted are skipped, so it may run again
  dashboards-backfill
           build the dashboards' aggregates (docs/dashboards.md) from the shipment events already
           in the outbox; events already counted are skipped, so it may run again
  rates-backfill
           build the lane rate index (docs/rates.md) from the bookings and cancellations already
           in the outbox; events already taken are skipped, so it may run again
  promo    create or update a promo code: --code CODE and --percent N (1–100) or --sar AMOUNT;
           optional --expires YYYY-MM-DD (end of that day, Riyadh), --max N uses in all,
           --plans plan-code,… (default every plan); each user may use a code once
  escrow-settle
           settle the disputed escrow of a protected load (issue 50): full to the carrier, partial
           (--sar AMOUNT incl. VAT to the carrier, the rest back to the shipper's wallet) or refund;
           --reason is required and goes on payment.settled
  ledger-balance
           the ledger's trial balance: the sum of every posting per currency (0 when it balances)

Uses the same configuration as the server (DATABASE_URL, else embedded PGlite in DATA_DIR).
With embedded PGlite, stop the server first: one process per data directory.`;

export interface PromoCommand {
  action: 'promo';
  code: string;
  kind: 'percent' | 'fixed';
  value: string;
  expiresAt: Date | null;
  maxRedemptions: number | null;
  planCodes: string[] | null;
}
export interface RejectDocumentCommand {
  action: 'reject-document';
  phone: string;
  document: BusinessDocumentType;
  reason: string;
}
export type AdminCommand =
  | { action: AdminAction; phone: string; reason?: string }
  | RejectDocumentCommand
  | { action: 'pending' }
  | { action: 'reposts'; max: number }
  | { action: 'records-backfill' }
  | { action: 'dashboards-backfill' }
  | { action: 'rates-backfill' }
  | { action: 'help' }
  | { action: 'ledger-balance' }
  | { action: 'escrow-settle'; loadId: string; input: EscrowSettleInput }
  | PromoCommand;

/** One flagged re-post as the loads service reports it (loads.service.ts repostReport). */
export interface RepostLine {
  referenceId: string;
  postedAt: string;
  status: string;
  posterCompany: string;
  posterPhone: string;
  originalReferenceId: string;
  originalShipperCompany: string;
  lane: string;
  pickupAt: string;
}

/** The report's lines: one per flagged load, or a sentence when there is none. */
export function describeReposts(rows: RepostLine[]): string[] {
  if (!rows.length) return ['No load is flagged as a re-post.'];
  return rows.map(
    (r) =>
      `${r.referenceId}  posted ${r.postedAt} by ${r.posterCompany} (${r.posterPhone}), ${r.status}  ${r.lane}, pickup ${r.pickupAt}  ` +
      `re-posts ${r.originalReferenceId} of ${r.originalShipperCompany}`,
  );
}

/** `promo` options → the promo code to write; AdminError(2) on anything unclear. */
function parsePromo(v: Record<string, string | boolean | undefined>): PromoCommand {
  const bad = (m: string) => new AdminError(`${m}\n\n${USAGE}`, 2);
  const code = promoCode.safeParse(v.code ?? '');
  if (!code.success) throw bad('--code must be 3 to 32 letters, digits, - or _.');
  const percent = typeof v.percent === 'string' ? v.percent : undefined;
  const sar = typeof v.sar === 'string' ? v.sar : undefined;
  if (!!percent === !!sar) throw bad('Give one of --percent or --sar.');
  if (percent && !/^([1-9]\d?|100)$/.test(percent)) throw bad('--percent is a whole number from 1 to 100.');
  if (sar && (!isMoneyString(sar) || Number(sar) <= 0)) throw bad('--sar is an amount in SAR, e.g. 50 or 49.99.');
  let expiresAt: Date | null = null;
  if (typeof v.expires === 'string') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(v.expires) || Number.isNaN(Date.parse(`${v.expires}T23:59:59+03:00`))) throw bad('--expires is a date, YYYY-MM-DD.');
    expiresAt = new Date(`${v.expires}T23:59:59+03:00`);
  }
  let maxRedemptions: number | null = null;
  if (typeof v.max === 'string') {
    if (!/^[1-9]\d{0,8}$/.test(v.max)) throw bad('--max is a whole number of uses.');
    maxRedemptions = Number(v.max);
  }
  let planCodes: string[] | null = null;
  if (typeof v.plans === 'string') {
    planCodes = v.plans.split(',').map((p) => p.trim());
    const unknown = planCodes.filter((p) => !PLAN_CODES.includes(p));
    if (unknown.length) throw bad(`Unknown plan ${unknown.join(', ')}; plans: ${PLAN_CODES.join(', ')}.`);
  }
  return { action: 'promo', code: code.data, kind: percent ? 'percent' : 'fixed', value: (percent ?? sar)!, expiresAt, maxRedemptions, planCodes };
}

/** `escrow-settle` options → the settlement; AdminError(2) on anything unclear. */
function parseEscrowSettle(v: Record<string, string | boolean | undefined>): AdminCommand {
  const bad = (m: string) => new AdminError(`${m}\n\n${USAGE}`, 2);
  const loadId = typeof v.load === 'string' ? v.load : '';
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(loadId)) throw bad('--load is the load id (a UUID).');
  const input = escrowSettleInput.safeParse({ kind: v.settle, reason: v.reason, ...(typeof v.sar === 'string' ? { carrierSar: v.sar } : {}) });
  if (!input.success) throw bad('--settle is full, partial (with --sar AMOUNT) or refund, and --reason "…" is required.');
  return { action: 'escrow-settle', loadId, input: input.data };
}

type ServiceCommand = Extract<AdminCommand, { action: 'records-backfill' | 'dashboards-backfill' | 'rates-backfill' | 'ledger-balance' | 'escrow-settle' }>;
const isServiceCommand = (cmd: AdminCommand): cmd is ServiceCommand =>
  ['records-backfill', 'dashboards-backfill', 'rates-backfill', 'ledger-balance', 'escrow-settle'].includes(cmd.action);

/** The backfills and the ledger and escrow commands (issue 50), through the container's services. */
async function runServiceCommand(
  cmd: ServiceCommand,
  services: Pick<ReturnType<typeof createContainer>['services'], 'records' | 'dashboards' | 'rates' | 'ledger' | 'escrow'>,
  out: (s: string) => void,
): Promise<number> {
  if (cmd.action === 'records-backfill') {
    out(`Records: ${await services.records.backfill()} event(s) counted (events counted before were skipped).`);
    return 0;
  }
  if (cmd.action === 'dashboards-backfill') {
    out(`Dashboards: ${await services.dashboards.backfill()} event(s) counted (events counted before were skipped).`);
    return 0;
  }
  if (cmd.action === 'rates-backfill') {
    out(`Lane rates: ${await services.rates.backfill()} event(s) taken (events taken before were skipped).`);
    return 0;
  }
  if (cmd.action === 'ledger-balance') {
    const rows = await services.ledger.trialBalance();
    if (!rows.length) out('The ledger is empty.');
    for (const r of rows)
      out(`${r.currency}: sum ${r.total} halalas over ${r.postings} postings in ${r.journals} journals${r.total === 0 ? ' (balanced)' : ' (NOT BALANCED)'}`);
    return rows.every((r) => r.total === 0) ? 0 : 1;
  }
  try {
    const e = await services.escrow.settle({ loadId: cmd.loadId }, cmd.input);
    out(
      `Escrow of load ${cmd.loadId} settled (${cmd.input.kind}): ${e.settlement!.carrierSar} SAR to the carrier, ${e.settlement!.refundSar} SAR back to the shipper. Reason: ${cmd.input.reason}`,
    );
    return 0;
  } catch (e) {
    if (e instanceof AppError) throw new AdminError(`${e.code}: ${errorMessage(e.code)} Nothing changed.`);
    throw e;
  }
}

/** Parse the command line (after `--`). Throws AdminError(exitCode 2) with the usage on bad input. */
export function parseAdminArgs(argv: string[]): AdminCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        phone: { type: 'string', short: 'p' },
        help: { type: 'boolean', short: 'h' },
        code: { type: 'string' },
        percent: { type: 'string' },
        sar: { type: 'string' },
        expires: { type: 'string' },
        max: { type: 'string' },
        plans: { type: 'string' },
        reason: { type: 'string' },
        document: { type: 'string' },
        load: { type: 'string' },
        settle: { type: 'string' },
      },
    });
  } catch (e) {
    throw new AdminError(`${(e as Error).message}\n\n${USAGE}`, 2);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals[0] === 'help') return { action: 'help' };
  const action = positionals[0];
  if (positionals.length !== 1 || !action) throw new AdminError(`Give exactly one action.\n\n${USAGE}`, 2);
  if (action === 'pending' || action === 'records-backfill' || action === 'dashboards-backfill' || action === 'rates-backfill') return { action };
  if (action === 'reposts') {
    if (values.max !== undefined && !/^[1-9]\d{0,3}$/.test(values.max)) throw new AdminError(`--max is a whole number from 1 to 9999.\n\n${USAGE}`, 2);
    return { action, max: values.max ? Number(values.max) : 100 };
  }
  if (action === 'promo') return parsePromo(values);
  if (action === 'ledger-balance') return { action };
  if (action === 'escrow-settle') return parseEscrowSettle(values);
  if (action === 'reject-document') {
    const bad = (m: string) => new AdminError(`${m}\n\n${USAGE}`, 2);
    const phone = normalizeSaudiPhone(values.phone ?? '');
    if (!phone) throw bad('--phone with a valid Saudi mobile number (+9665XXXXXXXX) is required.');
    if (!(BUSINESS_DOCUMENT_TYPES as readonly string[]).includes(values.document ?? ''))
      throw bad(`--document is one of ${BUSINESS_DOCUMENT_TYPES.join(', ')}.`);
    if (!values.reason?.trim()) throw bad('--reason "…" is required: the user reads it beside the document.');
    return { action, phone, document: values.document as BusinessDocumentType, reason: values.reason.trim() };
  }
  if (!(ADMIN_ACTIONS as readonly string[]).includes(action)) throw new AdminError(`Unknown action "${action}".\n\n${USAGE}`, 2);
  if (!values.phone) throw new AdminError(`--phone is required for ${action}.\n\n${USAGE}`, 2);
  const phone = normalizeSaudiPhone(values.phone);
  if (!phone) throw new AdminError(`"${values.phone}" is not a valid Saudi mobile number (+9665XXXXXXXX).`, 2);
  if (values.reason !== undefined && action !== 'reject') throw new AdminError(`--reason goes with reject.\n\n${USAGE}`, 2);
  return { action: action as AdminAction, phone, ...(values.reason ? { reason: values.reason } : {}) };
}

/**
 * Apply an admin action to the account of `phone` (E.164 or any Saudi format) through the auth
 * module's account service (one transaction). Throws AdminError for an unknown phone.
 */
export async function setAccountStatus(
  accounts: AccountAdmin,
  action: AdminAction,
  phoneInput: string,
  now = new Date(),
  opts: Parameters<AccountAdmin['setStatus']>[3] = {},
): Promise<StatusChange> {
  const phone = normalizeSaudiPhone(phoneInput) ?? phoneInput;
  const change = await accounts.setStatus(action, phone, now, opts);
  if (!change) throw new AdminError(`No account with phone ${phone}.`);
  return change;
}

/** One clear line about what changed. */
export function describeChange(action: AdminAction, c: StatusChange): string {
  const who = `${c.phone} — ${c.name} (${c.companyName}), ${TYPE_NAME[c.accountType] ?? c.accountType}`;
  const verb = { approve: 'Approved', reject: 'Rejected', suspend: 'Suspended', delete: 'Deleted' }[action];
  const same = c.from === c.to ? ' (it already was)' : '';
  const revoked = action === 'delete' ? `; ${c.sessionsRevoked} session(s) revoked` : '';
  return `${verb} ${who}: status ${STATUS_NAME[c.from] ?? c.from} → ${STATUS_NAME[c.to]}${same}${revoked}.`;
}

/**
 * Is a Masar server with the embedded database answering on this machine? PGlite has no lock,
 * so two processes on one data directory silently lose writes; refuse instead.
 */
async function embeddedServerRunning(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(1000) });
    const body = (await res.json()) as { data?: { db?: string } };
    return body.data?.db === 'pglite';
  } catch {
    return false;
  }
}

export async function main(argv: string[], out: (s: string) => void = console.log, err: (s: string) => void = console.error): Promise<number> {
  let cmd: AdminCommand;
  try {
    cmd = parseAdminArgs(argv);
  } catch (e) {
    err((e as Error).message);
    return e instanceof AdminError ? e.exitCode : 1;
  }
  if (cmd.action === 'help') {
    out(USAGE);
    return 0;
  }
  const config = loadConfig();
  if (!config.DATABASE_URL && (await embeddedServerRunning(config.PORT))) {
    err(
      `The Masar server is running on port ${config.PORT} with the embedded database (DATA_DIR=${config.dataDir}).\n` +
        'Embedded PGlite allows only one process per data directory: stop the server, run this command, then start the server again.\n' +
        '(On PostgreSQL — DATABASE_URL — the server can keep running.)',
    );
    return 3;
  }
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, poolMax: 2 });
  try {
    await migrate(database);
    // the operator's work goes through the same services the server builds (composition root)
    const services = createContainer({ config: { ...config, JOBS: false }, database }).services;
    const { accounts, billing, verification, loads } = services;
    if (isServiceCommand(cmd)) return await runServiceCommand(cmd, services, out);
    if (cmd.action === 'reposts') {
      for (const line of describeReposts(await loads.repostReport(cmd.max))) out(line);
      return 0;
    }
    if (cmd.action === 'promo') {
      await billing.upsertPromo(cmd);
      const what = cmd.kind === 'percent' ? `${cmd.value}% off` : `${cmd.value} SAR off`;
      const until = cmd.expiresAt ? `, until ${cmd.expiresAt.toISOString()}` : '';
      const max = cmd.maxRedemptions ? `, ${cmd.maxRedemptions} uses in all` : '';
      const plans = cmd.planCodes ? `, plans ${cmd.planCodes.join(', ')}` : ', every plan';
      out(`Promo code ${cmd.code}: ${what}${until}${max}${plans}; once per user.`);
      return 0;
    }
    if (cmd.action === 'pending') {
      const rows = await accounts.listPending();
      if (!rows.length) out('No accounts are waiting for approval.');
      for (const r of rows)
        out(`${r.phone}  ${TYPE_NAME[r.accountType] ?? r.accountType}  ${r.firstName} ${r.lastName} (${r.companyName})  since ${r.createdAt.toISOString()}`);
      return 0;
    }
    if (cmd.action === 'reject-document') {
      const { document, reason } = cmd;
      try {
        const change = await setAccountStatus(accounts, 'reject', cmd.phone, new Date(), {
          reason,
          also: (tx, userId) => verification.rejectDocumentIn(tx, userId, document, reason),
        });
        out(`${describeChange('reject', change)} Document ${document} rejected: ${reason}`);
      } catch (e) {
        if (e instanceof AppError && e.code === 'NOT_FOUND') throw new AdminError(`${cmd.phone} has no ${document} document; nothing changed.`);
        throw e;
      }
      return 0;
    }
    // the decision on the business documents goes with the status (profile approval page), and
    // the account.* event with both: one transaction
    const decision = cmd.action === 'approve' ? 'approved' : cmd.action === 'reject' ? 'rejected' : null;
    const reason = cmd.action === 'reject' ? (cmd.reason ?? null) : null;
    const change = await setAccountStatus(accounts, cmd.action, cmd.phone, new Date(), {
      reason,
      ...(decision ? { also: (tx, userId) => verification.decideIn(tx, userId, decision, reason) } : {}),
    });
    out(describeChange(cmd.action, change));
    return 0;
  } catch (e) {
    if (e instanceof AdminError) {
      err(e.message);
      return e.exitCode;
    }
    throw e;
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
