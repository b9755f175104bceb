import type { Redis } from 'ioredis';
import type { NonceStore } from './replay-guard';

/**
 * Seen nonces in Redis, shared by every gateway replica: `SET key 1 PX ttl NX` is atomic, so of
 * two replicas receiving the same nonce at once exactly one wins.
 */
export class RedisNonceStore implements NonceStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const set = await this.redis.set(`${this.prefix}${key}`, '1', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX');
    return set === 'OK';
  }
}
