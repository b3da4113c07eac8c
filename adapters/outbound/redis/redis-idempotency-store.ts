import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { IdempotencyClaim, IdempotencyStore, StoredOutcome } from '../../../ports/idempotency-store.js';
import { IDEMPOTENCY_BUDGET_MS, withinBudget } from './redis-availability.js';

// When Redis is slow or gone, every method rejects within its budget (RedisUnavailable): the executor
// refuses a new keyed write with 503 UNAVAILABLE (fail closed) and logs a completion it could not store
// (see redis-availability.ts).

// Claim atomically: a new key becomes {"state":"running"} for the running TTL; an existing one is
// answered from what it holds. The script returns the stored JSON (or nil for a fresh claim).
const CLAIM = `
local current = redis.call('GET', KEYS[1])
if current then return current end
redis.call('SET', KEYS[1], ARGV[1], 'EX', tonumber(ARGV[2]))
return false
`;

// Forget only a running claim (its JSON starts with the state); a stored outcome stays.
const ABANDON = `
local current = redis.call('GET', KEYS[1])
if current and string.sub(current, 1, 18) == '{"state":"running"' then redis.call('DEL', KEYS[1]) end
return 1
`;

// Withdraw a claim whose answer this instance never saw (Redis stalled past the budget): only the
// running record that claim wrote, recognised by its owner token, is deleted.
const WITHDRAW = `
local current = redis.call('GET', KEYS[1])
if current and string.sub(current, 1, 18) == '{"state":"running"' and string.find(current, ARGV[1], 1, true) then redis.call('DEL', KEYS[1]) end
return 1
`;

/** Completing runs after the caller was answered, so it may wait a little longer than a claim. */
const COMPLETION_BUDGET_MS = 2000;

type Stored =
  | { state: 'running'; fingerprint: string; owner?: string }
  | { state: 'done'; fingerprint: string; outcome: StoredOutcome };

/** Idempotency records shared by every instance through Redis. */
export class RedisIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'tg:idem:',
  ) {
    redis.defineCommand('tgIdemClaim', { numberOfKeys: 1, lua: CLAIM });
    redis.defineCommand('tgIdemAbandon', { numberOfKeys: 1, lua: ABANDON });
    redis.defineCommand('tgIdemWithdraw', { numberOfKeys: 1, lua: WITHDRAW });
  }

  private get scripts() {
    return this.redis as unknown as {
      tgIdemClaim: (key: string, running: string, ttl: number) => Promise<string | null>;
      tgIdemAbandon: (key: string) => Promise<number>;
      tgIdemWithdraw: (key: string, owner: string) => Promise<number>;
    };
  }

  async claim(key: string, fingerprint: string, runningTtlSeconds: number): Promise<IdempotencyClaim> {
    const owner = randomUUID();
    const running: Stored = { state: 'running', fingerprint, owner };
    let raw: string | null;
    try {
      raw = await withinBudget(this.redis, IDEMPOTENCY_BUDGET_MS, 'an idempotency claim', () =>
        this.scripts.tgIdemClaim(this.prefix + key, JSON.stringify(running), Math.max(1, Math.ceil(runningTtlSeconds))),
      );
    } catch (error) {
      // The caller is told the write did not run; a claim that still lands later must not hold the key
      // as "running" until its TTL. Sent on the same connection, the withdrawal runs after the claim.
      void withinBudget(this.redis, COMPLETION_BUDGET_MS, 'withdrawing an idempotency claim', () =>
        this.scripts.tgIdemWithdraw(this.prefix + key, `"owner":"${owner}"`),
      ).catch(() => undefined);
      throw error;
    }
    if (raw === null) return { state: 'started' };
    const stored = JSON.parse(raw) as Stored;
    if (stored.fingerprint !== fingerprint) return { state: 'mismatch' };
    return stored.state === 'running' ? { state: 'in-progress' } : { state: 'replay', outcome: stored.outcome };
  }

  async complete(key: string, fingerprint: string, outcome: StoredOutcome, ttlSeconds: number): Promise<void> {
    const done: Stored = { state: 'done', fingerprint, outcome };
    await withinBudget(this.redis, COMPLETION_BUDGET_MS, 'storing an idempotent outcome', () =>
      this.redis.set(this.prefix + key, JSON.stringify(done), 'EX', Math.max(1, Math.ceil(ttlSeconds))),
    );
  }

  async abandon(key: string): Promise<void> {
    await withinBudget(this.redis, COMPLETION_BUDGET_MS, 'abandoning an idempotency claim', () =>
      this.scripts.tgIdemAbandon(this.prefix + key),
    );
  }
}
