import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

/** Claims of an access token. typ 'guest' tokens come from /guest/signIn and have no user. */
export interface AccessClaims {
  /** user id, or the session id for guests */
  sub: string;
  /** session id (row in `sessions`) */
  sid: string;
  typ: 'user' | 'guest';
  /** account type 1|2|3 for users */
  at?: number;
}

const key = (secret: string) => new TextEncoder().encode(secret);

/** Sign a short-lived HS256 access token. Returns the token and its expiry (ISO). */
export async function signAccessToken(claims: AccessClaims, secret: string, ttlSeconds: number): Promise<{ token: string; expiresAt: string }> {
  const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
  const token = await new SignJWT({ sid: claims.sid, typ: claims.typ, at: claims.at })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(claims.sub)
    .setIssuedAt()
    .setExpirationTime(exp)
    .setIssuer('masar')
    .sign(key(secret));
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}

export type VerifyResult = { ok: true; claims: AccessClaims } | { ok: false; reason: 'expired' | 'invalid' };

/**
 * Verify an access token; distinguishes expired (→ 406) from invalid (→ 401). A token without
 * `exp` (or `sub`) is invalid even with a good signature: every token we sign expires (issue 22).
 */
export async function verifyAccessToken(token: string, secret: string): Promise<VerifyResult> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { issuer: 'masar', algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return { ok: false, reason: 'invalid' };
    return {
      ok: true,
      claims: {
        sub: payload.sub,
        sid: payload.sid,
        typ: payload.typ === 'user' ? 'user' : 'guest',
        at: typeof payload.at === 'number' ? payload.at : undefined,
      },
    };
  } catch (e) {
    return { ok: false, reason: e instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
  }
}
