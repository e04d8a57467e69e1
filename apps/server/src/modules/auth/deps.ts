import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { SmsGateway } from '../../gateways/sms/sms.ts';

/** What createAuthService takes (the container, tests). */
export interface AuthDeps {
  db: Db;
  config: Pick<
    Config,
    | 'jwtSecret'
    | 'ACCESS_TOKEN_TTL_SECONDS'
    | 'REFRESH_TOKEN_TTL_DAYS'
    | 'REFRESH_REUSE_GRACE_SECONDS'
    | 'OTP_RATE_PER_PHONE_PER_MIN'
    | 'OTP_RATE_PER_PHONE_PER_HOUR'
    | 'OTP_RATE_PER_IP_PER_10MIN'
    | 'LOGIN_MAX_FAILED_PER_15MIN'
  >;
  sms: SmsGateway;
  /** The service's clock (OTP expiry, rate windows, session times). Defaults to the system clock. */
  now?: () => Date;
}

/** What the use cases (use-cases/*.ts) take: AuthDeps with the clock filled in by createAuthService. */
export type AuthUseCaseDeps = Required<AuthDeps>;
