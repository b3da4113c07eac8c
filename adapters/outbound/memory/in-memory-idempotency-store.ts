import type { Clock } from '../../../ports/clock.js';
import type { IdempotencyClaim, IdempotencyStore, StoredOutcome } from '../../../ports/idempotency-store.js';

type Entry = { fingerprint: string; expiresAt: number } & ({ state: 'running' } | { state: 'done'; outcome: StoredOutcome });

/** Idempotency records held in this process. */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly clock: Clock) {}

  claim(key: string, fingerprint: string, runningTtlSeconds: number): Promise<IdempotencyClaim> {
    const now = this.clock.now().getTime();
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= now) {
      this.entries.set(key, { state: 'running', fingerprint, expiresAt: now + runningTtlSeconds * 1000 });
      return Promise.resolve({ state: 'started' });
    }
    if (entry.fingerprint !== fingerprint) return Promise.resolve({ state: 'mismatch' });
    return Promise.resolve(entry.state === 'running' ? { state: 'in-progress' } : { state: 'replay', outcome: entry.outcome });
  }

  complete(key: string, fingerprint: string, outcome: StoredOutcome, ttlSeconds: number): Promise<void> {
    this.entries.set(key, { state: 'done', fingerprint, outcome, expiresAt: this.clock.now().getTime() + ttlSeconds * 1000 });
    return Promise.resolve();
  }

  abandon(key: string): Promise<void> {
    if (this.entries.get(key)?.state === 'running') this.entries.delete(key);
    return Promise.resolve();
  }
}
