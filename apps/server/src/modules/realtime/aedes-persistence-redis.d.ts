// aedes-persistence-redis 12 ships no types: the factory takes ioredis options, or `conn`.
declare module 'aedes-persistence-redis' {
  import type { Redis, RedisOptions } from 'ioredis';
  function aedesPersistenceRedis(opts?: RedisOptions & { conn?: Redis; maxSessionDelivery?: number }): unknown;
  export default aedesPersistenceRedis;
}
