import { pathToFileURL } from 'node:url';
import pino, { type Logger } from 'pino';
import { connectionStorage } from '../adapters/outbound/persistence/connection-storage.js';
import { migrateOAuth } from '../adapters/outbound/persistence/oauth-store.js';
import { CORE_ENV } from './core-env.js';

// The migration entry: `node dist/composition/migrate.js` (or `npx tsx composition/migrate.ts`). It brings the
// database's schema up to date and exits, for a deployment that migrates once before its instances start (a
// Kubernetes Job, a compose service the gateways wait for). The gateway itself still migrates at first use
// (under PostgreSQL's advisory lock), so running this is never required, only earlier and in one place.

/** The two variables this entry reads (it needs no key, token or vendor setting). */
export interface MigrateSettings {
  readonly databaseUrl?: string;
  readonly dataDir: string;
}

/** DATABASE_URL and GATEWAY_DATA_DIR, decoded as the gateway decodes them; a problem in words otherwise. */
export const migrateSettings = (env: NodeJS.ProcessEnv): MigrateSettings | { problem: string } => {
  const url = CORE_ENV.DATABASE_URL.decode(env['DATABASE_URL']?.trim() || undefined);
  if (url._tag === 'Left') return { problem: `DATABASE_URL must be ${CORE_ENV.DATABASE_URL.expected}` };
  const dir = CORE_ENV.GATEWAY_DATA_DIR.decode(env['GATEWAY_DATA_DIR']?.trim() || undefined);
  if (dir._tag === 'Left') return { problem: `GATEWAY_DATA_DIR must be ${CORE_ENV.GATEWAY_DATA_DIR.expected}` };
  return { ...(url.right ? { databaseUrl: url.right } : {}), dataDir: dir.right };
};

/**
 * Runs every migration the gateway would run at first use: the schema of connections and the audit log (run
 * when the database opens), then the authorization server's tables. Returns the dialect migrated.
 */
export const migrateDatabase = async (settings: MigrateSettings, logger: Logger): Promise<'postgres' | 'sqlite'> => {
  // No key is read or made: opening the database and migrating touch no secret.
  const storage = connectionStorage({ ...settings, oldEncryptionKeys: [] }, logger);
  try {
    const open = await storage.database();
    await migrateOAuth(open.db, open.dialect);
    return open.dialect;
  } finally {
    await storage.close();
  }
};

const main = async (): Promise<number> => {
  const level = CORE_ENV.LOG_LEVEL.decode(process.env['LOG_LEVEL']?.trim() || undefined);
  const logger = pino({ level: level._tag === 'Right' ? level.right : 'info', base: { role: 'migrate' } });
  const settings = migrateSettings(process.env);
  if ('problem' in settings) {
    logger.error(settings.problem);
    return 2;
  }
  const started = performance.now();
  try {
    const dialect = await migrateDatabase(settings, logger);
    logger.info({ dialect, ms: Math.round(performance.now() - started) }, 'database schema up to date');
    return 0;
  } catch (error) {
    logger.error({ err: error }, 'migration failed');
    return 1;
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main();
}
