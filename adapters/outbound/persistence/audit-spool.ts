import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AuditEntry, AuditLog, AuditQuery, StoredAuditEntry } from '../../../ports/audit-log.js';

// Issue 37: an audit row is never lost to a database that is away. A row the database refuses is appended to a
// local spool (one JSON line per row, flushed to disk before the call is answered) in the data directory, and
// written to the database when it answers again (every `retryMs`, oldest first, at least once: a row whose
// insert succeeded just before a crash may be written twice, never zero times). The spool is bounded: past
// `maxBytes` the gateway stops accepting writes (`accepting()` is false, and the executor answers 503
// UNAVAILABLE before the tool runs), so a call admitted while there was room always finds a place for its row.

export interface AuditSpoolOptions {
  /** The spool file (`{GATEWAY_DATA_DIR}/audit-spool.jsonl`); the replay works on `{file}.replaying`. */
  readonly file: string;
  /** Past this size writes are refused until the rows are back in the database. */
  readonly maxBytes: number;
  /** Time between attempts to write spooled rows to the database (default 5 s). */
  readonly retryMs?: number;
  /** The database refused a row (it was spooled), or a replay failed (the rows stay spooled). */
  readonly onFault?: (error: unknown, operation: 'record' | 'replay') => void;
  /** Rows written from the spool to the database. */
  readonly onReplayed?: (rows: number) => void;
}

interface SpooledRow extends Omit<AuditEntry, 'at'> {
  readonly at: string;
}

const line = (entry: AuditEntry): string => `${JSON.stringify({ ...entry, at: entry.at.toISOString() })}\n`;
const entryOf = (text: string): AuditEntry => {
  const row = JSON.parse(text) as SpooledRow;
  return { ...row, at: new Date(row.at) };
};
const sizeOf = (file: string): Promise<number> =>
  stat(file)
    .then((s) => s.size)
    .catch(() => 0);

export class SpooledAuditLog implements AuditLog {
  private bytes = 0;
  private readonly replaying: string;
  private timer: NodeJS.Timeout | undefined;
  /** Appends and the replay's file moves, one at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  private replay: Promise<void> | undefined;
  private readonly sized: Promise<void>;

  constructor(
    private readonly inner: AuditLog,
    private readonly o: AuditSpoolOptions,
  ) {
    this.replaying = `${o.file}.replaying`;
    // Rows left by an earlier run are counted and written back as soon as the database answers.
    this.sized = Promise.all([sizeOf(o.file), sizeOf(this.replaying)]).then(([a, b]) => {
      this.bytes += a + b;
      if (this.bytes > 0) this.schedule();
    });
  }

  /** The last row the database refused could not be spooled either (a full or read-only disk). */
  private unwritable = false;

  /**
   * Room for another row: false while the spool is full, or while neither the database nor the spool took the
   * last row (writes are then refused before they run).
   */
  accepting(): boolean {
    return this.bytes < this.o.maxBytes && !this.unwritable;
  }

  /** Bytes of rows waiting for the database. */
  get pending(): number {
    return this.bytes;
  }

  async record(entry: AuditEntry): Promise<void> {
    try {
      await this.inner.record(entry);
      this.unwritable = false;
    } catch (error) {
      this.o.onFault?.(error, 'record');
      try {
        await this.spool(entry);
        this.unwritable = false;
      } catch (spoolError) {
        this.unwritable = true;
        throw spoolError;
      }
    }
  }

  query(q: AuditQuery): Promise<StoredAuditEntry[]> {
    return this.inner.query(q);
  }

  /** Writes the spooled rows to the database now; resolves when done or when the database failed again. */
  flush(): Promise<void> {
    return (this.replay ??= this.replayOnce()
      .catch((error: unknown) => this.o.onFault?.(error, 'replay')) // a file error: the rows stay for the next attempt
      .finally(() => (this.replay = undefined)));
  }

  /** Stops the retry timer (rows still spooled are written by the next start). */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private exclusive<T>(step: () => Promise<T>): Promise<T> {
    const run = this.queue.then(step, step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async spool(entry: AuditEntry): Promise<void> {
    const text = line(entry);
    await this.exclusive(async () => {
      await mkdir(dirname(this.o.file), { recursive: true, mode: 0o700 });
      const handle = await open(this.o.file, 'a', 0o600);
      try {
        await handle.appendFile(text, 'utf8');
        await handle.datasync();
      } finally {
        await handle.close();
      }
    });
    this.bytes += Buffer.byteLength(text);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().then(() => {
        if (this.bytes > 0) this.schedule();
      });
    }, this.o.retryMs ?? 5_000);
    this.timer.unref();
  }

  private async replayOnce(): Promise<void> {
    await this.sized;
    // New rows keep going to the spool file while the rows moved aside are written.
    const moved = await this.exclusive(async () => {
      if ((await sizeOf(this.replaying)) > 0) return true;
      if ((await sizeOf(this.o.file)) === 0) return false;
      await rename(this.o.file, this.replaying);
      return true;
    });
    if (!moved) return;
    const lines = (await readFile(this.replaying, 'utf8')).split('\n').filter((l) => l.trim() !== '');
    let done = 0;
    try {
      for (const text of lines) {
        await this.inner.record(entryOf(text));
        done++;
        this.bytes = Math.max(0, this.bytes - Buffer.byteLength(text) - 1);
      }
    } catch (error) {
      this.o.onFault?.(error, 'replay');
    }
    if (done > 0) this.o.onReplayed?.(done);
    if (done === lines.length) await unlink(this.replaying).catch(() => undefined);
    else {
      // The rows not yet written, kept for the next attempt (written aside, then moved over the old file).
      const rest = lines
        .slice(done)
        .map((l) => `${l}\n`)
        .join('');
      await writeFile(`${this.replaying}.tmp`, rest, { mode: 0o600 });
      await rename(`${this.replaying}.tmp`, this.replaying);
      return;
    }
    if ((await sizeOf(this.o.file)) > 0) return this.replayOnce();
  }
}
