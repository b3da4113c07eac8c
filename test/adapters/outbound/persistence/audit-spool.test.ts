import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SpooledAuditLog } from '../../../../adapters/outbound/persistence/audit-spool.js';
import type { AuditEntry, AuditLog, StoredAuditEntry } from '../../../../ports/audit-log.js';

// Issue 37: an audit row the database refuses is kept in a local file, and written to the database when it
// answers again; a spool past its bound makes the log refuse new writes (accepting() false).

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const spoolFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-spool-'));
  dirs.push(dir);
  return join(dir, 'audit-spool.jsonl');
};

/** A database that can be switched off. */
class Switchable implements AuditLog {
  up = true;
  readonly rows: AuditEntry[] = [];
  record(entry: AuditEntry): Promise<void> {
    if (!this.up) return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    this.rows.push(entry);
    return Promise.resolve();
  }
  query(): Promise<StoredAuditEntry[]> {
    return Promise.resolve(this.rows.map((r, i) => ({ ...r, id: i + 1 })));
  }
}

const entry = (n: number): AuditEntry => ({
  at: new Date(Date.UTC(2026, 10, 29, 0, 0, n)),
  tenant: 'acme',
  principal: 'key:ops',
  tool: 'crm_createContact',
  targets: [String(n)],
  status: 200,
  requestId: `req-${n}`,
  approver: 'nobody',
});

describe('SpooledAuditLog', () => {
  it('keeps the rows the database refuses in the file, and writes them, oldest first, when it is back', async () => {
    const db = new Switchable();
    const faults: string[] = [];
    const log = new SpooledAuditLog(db, {
      file: spoolFile(),
      maxBytes: 1 << 20,
      retryMs: 3_600_000,
      onFault: (_, op) => faults.push(op),
    });
    await log.record(entry(1));
    db.up = false;
    await log.record(entry(2));
    await log.record(entry(3));
    expect(db.rows.map((r) => r.requestId)).toEqual(['req-1']);
    expect(log.pending).toBeGreaterThan(0);
    expect(faults).toEqual(['record', 'record']);

    await log.flush(); // still down: the rows stay
    expect(db.rows).toHaveLength(1);
    expect(faults.at(-1)).toBe('replay');

    db.up = true;
    await log.flush();
    expect(db.rows.map((r) => r.requestId)).toEqual(['req-1', 'req-2', 'req-3']);
    expect(db.rows[1]).toEqual(entry(2)); // the same row, its time included
    expect(log.pending).toBe(0);
    log.close();
  });

  it('rows left by an earlier run (a crash, a restart while the database was away) are written by the next', async () => {
    const file = spoolFile();
    const down = new Switchable();
    down.up = false;
    const first = new SpooledAuditLog(down, { file, maxBytes: 1 << 20, retryMs: 3_600_000 });
    await first.record(entry(7));
    first.close();
    expect(readFileSync(file, 'utf8')).toContain('req-7');

    const db = new Switchable();
    const second = new SpooledAuditLog(db, { file, maxBytes: 1 << 20, retryMs: 3_600_000 });
    await second.flush();
    expect(db.rows.map((r) => r.requestId)).toEqual(['req-7']);
    expect(() => statSync(file)).toThrow();
    second.close();
  });

  it('past its bound the log stops accepting writes, and accepts again once the rows are in the database', async () => {
    const db = new Switchable();
    db.up = false;
    const log = new SpooledAuditLog(db, { file: spoolFile(), maxBytes: 600, retryMs: 3_600_000 });
    expect(log.accepting()).toBe(true);
    let n = 0;
    while (log.accepting()) await log.record(entry(n++));
    expect(n).toBeGreaterThan(1);
    db.up = true;
    await log.flush();
    expect(db.rows).toHaveLength(n);
    expect(log.accepting()).toBe(true);
    log.close();
  });

  it('a row recorded while the spool is being written back is kept too', async () => {
    const db = new Switchable();
    db.up = false;
    const log = new SpooledAuditLog(db, { file: spoolFile(), maxBytes: 1 << 20, retryMs: 3_600_000 });
    for (let i = 0; i < 5; i++) await log.record(entry(i));
    db.up = true;
    const flushing = log.flush();
    db.up = false;
    await log.record(entry(99)); // the database failed again meanwhile: spooled beside the rows being moved
    db.up = true;
    await flushing;
    await log.flush();
    expect(db.rows.map((r) => r.requestId).sort()).toEqual(['req-0', 'req-1', 'req-2', 'req-3', 'req-4', 'req-99']);
    log.close();
  });
});
