import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Bytes of a body held in memory before the rest goes to a temporary file. */
export const SPOOL_MEMORY_BYTES = 8 * 1024 * 1024;

/**
 * Collects a request body: in memory up to `memoryBytes`, then in a temporary file. A large upload that
 * is refused part-way (over its limit, malformed, aborted) so never holds more than `memoryBytes` of
 * memory; one that is accepted is read back whole only once it is complete. Writes are synchronous
 * (a 64 KiB chunk at a time), so the file never lags behind the network and no write queue builds up.
 */
export class ByteSpool {
  private parts: Buffer[] = [];
  private held = 0;
  private size = 0;
  private dir: string | undefined;
  private fd: number | undefined;

  constructor(private readonly memoryBytes: number = SPOOL_MEMORY_BYTES) {}

  get bytes(): number {
    return this.size;
  }

  append(chunk: Uint8Array): void {
    this.size += chunk.byteLength;
    if (this.fd === undefined && this.held + chunk.byteLength <= this.memoryBytes) {
      this.parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      this.held += chunk.byteLength;
      return;
    }
    if (this.fd === undefined) {
      this.dir = mkdtempSync(join(tmpdir(), 'gateway-upload-'));
      this.fd = openSync(join(this.dir, 'body'), 'w', 0o600);
      for (const part of this.parts) writeSync(this.fd, part);
      this.parts = [];
      this.held = 0;
    }
    writeSync(this.fd, chunk);
  }

  /** The whole body, and the spool emptied. */
  take(): Buffer {
    if (this.fd === undefined) {
      const out = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.held);
      this.parts = [];
      this.held = 0;
      return out;
    }
    closeSync(this.fd);
    this.fd = undefined;
    try {
      return readFileSync(join(this.dir!, 'body'));
    } finally {
      this.removeFile();
    }
  }

  /** Forgets what was collected (a refused or aborted body). Safe to call more than once. */
  discard(): void {
    this.parts = [];
    this.held = 0;
    if (this.fd !== undefined) {
      closeSync(this.fd);
      this.fd = undefined;
    }
    this.removeFile();
  }

  private removeFile(): void {
    if (this.dir === undefined) return;
    rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}
