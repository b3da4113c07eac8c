import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

// The embedded database: SQLite compiled to WebAssembly (node-sqlite3-wasm), on a file in the data dir.
// Chosen by measurement over better-sqlite3 (a native addon to build for every Node ABI), PGlite (+270 MB)
// and sql.js (rewrites the whole file on every save): see the README's storage section. It writes pages
// through Node's fs and fsyncs on commit, so a write is durable before the call answers, and its cost does
// not grow with the table.

type WasmDatabase = {
  exec(sql: string): void;
  prepare(sql: string): WasmStatement;
  close(): void;
};
type WasmStatement = {
  all(values?: unknown[]): unknown[];
  run(values?: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  finalize(): void;
};

/** Statements that return rows: what Kysely's SQLite compiler writes for reads and RETURNING. */
const READER = /^\s*(select|with|pragma|values)\b|\breturning\b/i;

/** Kysely's bindings may hold booleans and Dates; SQLite takes numbers, strings, bigints, bytes, null. */
const bindable = (parameters: readonly unknown[]): unknown[] =>
  parameters.map((p) => (p instanceof Date ? p.toISOString() : p === undefined ? null : p));

/** One statement, prepared for a single use and finalized at once (WebAssembly memory is not collected). */
const statement = (db: WasmDatabase, sql: string): SqliteStatement => {
  const once = <T>(use: (s: WasmStatement) => T): T => {
    const prepared = db.prepare(sql);
    try {
      return use(prepared);
    } finally {
      prepared.finalize();
    }
  };
  return {
    reader: READER.test(sql),
    all: (parameters) => once((s) => s.all(bindable(parameters))),
    run: (parameters) => once((s) => s.run(bindable(parameters))),
    iterate: (parameters) => once((s) => s.all(bindable(parameters)))[Symbol.iterator](),
  };
};

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The file's lock is a directory beside it (`<file>.lock`), held for the life of the process
 * (exclusive locking mode, which WAL needs without shared memory). A process that died leaves it behind:
 * this finds such a lock by the pid recorded in the data dir and clears it; a live owner is an error.
 */
const claimDataDir = (dir: string, file: string): void => {
  const owner = join(dir, 'owner.pid');
  let pid: number | undefined;
  try {
    pid = Number(readFileSync(owner, 'utf8'));
  } catch {
    pid = undefined;
  }
  if (pid && pid !== process.pid && alive(pid))
    throw new Error(
      `the data dir ${dir} is in use by another process (pid ${pid}); give each instance its own GATEWAY_DATA_DIR, or use DATABASE_URL`,
    );
  try {
    if (statSync(`${file}.lock`).isDirectory()) rmSync(`${file}.lock`, { recursive: true, force: true });
  } catch {
    // No lock left behind.
  }
  writeFileSync(owner, String(process.pid), { mode: 0o600 });
};

interface Shared {
  readonly db: WasmDatabase;
  refs: number;
}

/** Open files of this process: two gateways in one process (tests, embedders) share one handle. */
const openFiles = new Map<string, Shared>();

/** Opens (creating) the embedded database file in `dir`, in WAL mode with full fsync on commit. */
export const openEmbeddedSqlite = (dir: string, fileName = 'gateway.sqlite'): SqliteDatabase => {
  const file = resolve(dir, fileName);
  let shared = openFiles.get(file);
  if (!shared) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    claimDataDir(dir, file);
    // A CommonJS module that compiles SQLite's WebAssembly when loaded: loaded here, on first use only.
    const { Database } = createRequire(import.meta.url)('node-sqlite3-wasm') as {
      Database: new (file: string) => WasmDatabase;
    };
    const db = new Database(file);
    db.exec(
      'PRAGMA locking_mode=EXCLUSIVE; PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA cache_size=-2000; PRAGMA foreign_keys=ON;',
    );
    shared = { db, refs: 0 };
    openFiles.set(file, shared);
  }
  shared.refs++;
  const held = shared;
  let closed = false;
  return {
    prepare: (sql) => statement(held.db, sql),
    close: () => {
      if (closed) return;
      closed = true;
      if (--held.refs > 0) return;
      openFiles.delete(file);
      held.db.close();
      rmSync(join(dir, 'owner.pid'), { force: true });
    },
  };
};
