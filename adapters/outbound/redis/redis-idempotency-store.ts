import type { Redis } from 'ioredis';
import type { IdempotencyClaim, IdempotencyStore, StoredOutcome } from '../../../ports/idempotency-store.js';

// Claim atomically: a new key becomes {"state":"running"} for the running TTL; an existing one is
// answered from what it holds. The script returns the stored JSON (or nil for a fresh claim).
const CLAIM = `
local current = redis.call('GET', KEYS[1])
if current then return current end
redis.call('SET', KEYS[1], ARGV[1], 'EX', tonumber(ARGV[2]))
return false
`;

const ABANDON = `
local current = redis.call('GET', KEYS[1])
if current and string.find(current, '"state":"running"', 1, true) then redis.call('DEL', KEYS[1]) end
return 1
`;

type Stored = { state: 'running'; fingerprint: string } | { state: 'done'; fingerprint: string; outcome: StoredOutcome };

/** Idempotency records shared by every instance through Redis. */
export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'tg:idem:',
  ) {
    redis.defineCommand('tgIdemClaim', { numberOfKeys: 1, lua: CLAIM });
    redis.defineCommand('tgIdemAbandon', { numberOfKeys: 1, lua: ABANDON });
  }

  async claim(key: string, fingerprint: string, runningTtlSeconds: number): Promise<IdempotencyClaim> {
    const running: Stored = { state: 'running', fingerprint };
    const raw = (await (this.redis as unknown as { tgIdemClaim: (...a: unknown[]) => Promise<string | null> }).tgIdemClaim(
      this.prefix + key,
      JSON.stringify(running),
      Math.max(1, Math.ceil(runningTtlSeconds)),
    )) as string | null;
    if (raw === null) return { state: 'started' };
    const stored = JSON.parse(raw) as Stored;
    if (stored.fingerprint !== fingerprint) return { state: 'mismatch' };
    return stored.state === 'running' ? { state: 'in-progress' } : { state: 'replay', outcome: stored.outcome };
  }

  async complete(key: string, fingerprint: string, outcome: StoredOutcome, ttlSeconds: number): Promise<void> {
    const done: Stored = { state: 'done', fingerprint, outcome };
    await this.redis.set(this.prefix + key, JSON.stringify(done), 'EX', Math.max(1, Math.ceil(ttlSeconds)));
  }

  async abandon(key: string): Promise<void> {
    await (this.redis as unknown as { tgIdemAbandon: (...a: unknown[]) => Promise<number> }).tgIdemAbandon(this.prefix + key);
  }
}
