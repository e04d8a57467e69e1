import { Redis } from 'ioredis';

/**
 * The Redis connection for state several instances share (issue 6: rate-limit counters; later
 * presence and pub/sub), when REDIS_URL is set. Commands fail fast while Redis is away rather
 * than queue without bound; callers decide whether to fail open or closed.
 */
export function createRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 2, connectTimeout: 5_000, lazyConnect: false });
}

export type { Redis };
