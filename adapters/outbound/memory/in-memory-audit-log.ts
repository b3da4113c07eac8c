import type { AuditEntry, AuditLog, AuditQuery, StoredAuditEntry } from '../../../ports/audit-log.js';
import type { Clock } from '../../../ports/clock.js';

/**
 * The audit log of memory mode (every group in memory, no DATABASE_URL): the newest `max` entries of the
 * last `ttlMs`, gone with the process like the data they describe.
 */
export class InMemoryAuditLog implements AuditLog {
  readonly #entries: StoredAuditEntry[] = [];
  #nextId = 1;

  constructor(
    private readonly clock: Clock,
    private readonly max = 10_000,
    private readonly ttlMs = 7 * 86_400_000,
  ) {}

  record(entry: AuditEntry): Promise<void> {
    this.#entries.push({ ...entry, id: this.#nextId++ });
    const oldest = this.clock.now().getTime() - this.ttlMs;
    let drop = Math.max(0, this.#entries.length - this.max);
    while (drop < this.#entries.length && this.#entries[drop]!.at.getTime() < oldest) drop++;
    if (drop > 0) this.#entries.splice(0, drop);
    return Promise.resolve();
  }

  query(q: AuditQuery): Promise<StoredAuditEntry[]> {
    const found: StoredAuditEntry[] = [];
    for (let i = this.#entries.length - 1; i >= 0 && found.length < q.limit; i--) {
      const e = this.#entries[i]!;
      if (e.tenant !== q.tenant) continue;
      if (q.before !== undefined && e.id >= q.before) continue;
      if (q.since && e.at < q.since) break;
      if (q.tool && e.tool !== q.tool) continue;
      if (q.principal && e.principal !== q.principal) continue;
      found.push(e);
    }
    return Promise.resolve(found);
  }
}
