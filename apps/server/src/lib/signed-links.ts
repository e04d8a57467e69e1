import { hkdfSync } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

/**
 * What a signed link is for. The purpose is the token's audience (`aud`): a link made for one
 * purpose never opens another, and none of them is an access token.
 * - driver-job: the driver's job link (spec §2 "share driver link"); subject = driver id.
 * - vendor-invite: the public vendor sign-up link (spec §2 "share vendor link"); subject = the
 *   inviting account's user id.
 * - driver-trip: the short-lived trip session a driver gets after proving phone + licence
 *   number on the job link (modules/trips); subject = driver id.
 */
export const LINK_PURPOSES = ['driver-job', 'vendor-invite', 'driver-trip'] as const;
export type LinkPurpose = (typeof LINK_PURPOSES)[number];

export interface SignedLink {
  token: string;
  /** ISO 8601 instant after which the link no longer opens. */
  expiresAt: string;
}

export interface OpenedLink {
  /** The record the link is about (driver id, inviting user id). */
  subject: string;
  /** Extra string claims given at signing (e.g. the owner of a driver). */
  claims: Record<string, string>;
  expiresAt: string;
}

export type LinkCheck = { ok: true; link: OpenedLink } | { ok: false; reason: 'expired' | 'invalid' };

const ISSUER = 'masar';
const RESERVED = new Set(['iss', 'sub', 'aud', 'exp', 'iat', 'nbf', 'jti']);

/**
 * Links that carry their own authority (issue 6): one module makes and checks them all, as HS256
 * JWTs (jose) with the purpose in `aud`, the subject in `sub` and an expiry in `exp`. The key is
 * derived from the server secret with HKDF-SHA256 under its own label, so a link is never
 * accepted as an access token and an access token never opens a link. Stateless: revoking one
 * link means changing the state it points at (a suspended driver, a deleted account).
 */
export function createSignedLinks(secret: string, now: () => number = Date.now) {
  const key = new Uint8Array(hkdfSync('sha256', secret, 'masar', 'masar signed links v1', 32));
  return {
    /** Sign a link for `purpose` about `subject`, valid `ttlSeconds`. */
    async sign(purpose: LinkPurpose, subject: string, ttlSeconds: number, claims: Record<string, string> = {}): Promise<SignedLink> {
      for (const k of Object.keys(claims)) if (RESERVED.has(k)) throw new Error(`signed link claim "${k}" is reserved`);
      const iat = Math.floor(now() / 1000);
      const exp = iat + ttlSeconds;
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'masar-link+jwt' })
        .setIssuer(ISSUER)
        .setAudience(purpose)
        .setSubject(subject)
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
      return { token, expiresAt: new Date(exp * 1000).toISOString() };
    },

    /** Check a link for `purpose`: expired, or invalid (bad signature, other purpose, malformed). */
    async check(purpose: LinkPurpose, token: string): Promise<LinkCheck> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: purpose,
          typ: 'masar-link+jwt',
          requiredClaims: ['exp', 'sub'],
          currentDate: new Date(now()),
        });
        if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return { ok: false, reason: 'invalid' };
        const claims: Record<string, string> = {};
        for (const [k, v] of Object.entries(payload)) if (!RESERVED.has(k) && typeof v === 'string') claims[k] = v;
        return { ok: true, link: { subject: payload.sub, claims, expiresAt: new Date(payload.exp * 1000).toISOString() } };
      } catch (e) {
        return { ok: false, reason: e instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
      }
    },
  };
}

export type SignedLinks = ReturnType<typeof createSignedLinks>;
