import { createRequire } from 'node:module';
import { join } from 'node:path';
import type pg from 'pg';
import type { Logger } from 'pino';
import { AUDIT_SPOOL_FILE } from './audit-spool.js';

// Issue 37: a DATABASE_URL naming a closed port or a missing database is said at start, in one line, instead of
// being found out by the first call that needs it. Asked once, after the server listens (start-up does not wait
// for it), with a short time limit.

const require = createRequire(import.meta.url);

/** DATABASE_URL without its password: `postgres://user@host:port/db`. */
export const databaseNamed = (url: string): string => {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
    return `${u.protocol}//${user}${u.hostname}:${u.port || '5432'}${u.pathname || '/'}`;
  } catch {
    return 'DATABASE_URL (not a URL)';
  }
};

/** The line said when the database does not answer at start. */
export const databaseDownLine = (url: string, reason: string, dataDir: string): string =>
  `DATABASE_URL ${databaseNamed(url)} cannot be used (${reason}): tool calls still work and their audit rows are kept in ${join(dataDir, AUDIT_SPOOL_FILE)} until it answers; the connections and audit APIs, vendor connections and the OAuth sign-in answer 503 until then`;

const reasonOf = (error: unknown): string => {
  // "localhost" tried over IPv4 and IPv6: an AggregateError with an empty message; its first error says why.
  if (error instanceof AggregateError && error.errors.length) return reasonOf(error.errors[0]);
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${message}, ${code}` : message || String(code);
};

/** Connects once; resolves to undefined when the database answered, else why not. */
export const probeDatabase = async (url: string, timeoutMs = 3_000): Promise<string | undefined> => {
  const { Client } = require('pg') as typeof pg;
  const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    return reasonOf(error);
  } finally {
    await client.end().catch(() => undefined);
  }
};

/** Says in one warning line when DATABASE_URL cannot be used at start; nothing when it can. */
export const announceDatabase = async (url: string, dataDir: string, logger: Logger): Promise<void> => {
  const reason = await probeDatabase(url);
  if (reason !== undefined)
    logger.warn({ database: databaseNamed(url), reason }, databaseDownLine(url, reason, dataDir));
};
