import { createHmac } from 'node:crypto';
import type { IceServer } from '@masar/shared';

/**
 * A TURN credential in coturn's REST scheme (`use-auth-secret` / `static-auth-secret`;
 * draft-uberti-behave-turn-rest): username `<expiryUnix>:<userId>` — the Unix time (seconds) it
 * stops being valid — and credential base64(HMAC-SHA1(secret, username)). coturn recomputes the
 * HMAC with the same secret and refuses the username once its time has passed, so nothing is stored.
 */
export function turnCredential(
  secret: string,
  userId: string,
  ttlSeconds: number,
  nowMs = Date.now(),
): { username: string; credential: string; expiresAt: number } {
  const expiresAt = Math.floor(nowMs / 1000) + ttlSeconds;
  const username = `${expiresAt}:${userId}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64'), expiresAt };
}

/** Where the ICE servers come from (config STUN_URLS, TURN_URLS, TURN_SECRET, TURN_TTL_SECONDS). */
export interface IceConfig {
  STUN_URLS: string[];
  TURN_URLS: string[];
  TURN_SECRET?: string;
  TURN_TTL_SECONDS: number;
}

/**
 * The RTCPeerConnection `iceServers` for `userId`: the STUN servers, and the TURN servers with a
 * fresh short-lived credential. Empty when neither is configured (peers on one machine or LAN
 * connect over their host candidates).
 */
export function iceServersFor(cfg: IceConfig, userId: string, nowMs = Date.now()): IceServer[] {
  const out: IceServer[] = [];
  if (cfg.STUN_URLS.length) out.push({ urls: cfg.STUN_URLS });
  if (cfg.TURN_URLS.length && cfg.TURN_SECRET) {
    const { username, credential } = turnCredential(cfg.TURN_SECRET, userId, cfg.TURN_TTL_SECONDS, nowMs);
    out.push({ urls: cfg.TURN_URLS, username, credential });
  }
  return out;
}
