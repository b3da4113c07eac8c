import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Sealer, SealPurpose } from '../../../application/connections/connect-flow.js';
import type { ConnectionStore } from '../../../ports/connection-store.js';
import {
  openEmbedded,
  openPostgres,
  POSTGRES_POOL_SIZE,
  type DatabaseFaultListener,
  type OpenDatabase,
} from './databases.js';
import { encryptionKey, newEncryptionKey, SecretBox } from './secret-box.js';

/** Where connections live and which keys seal their secrets (GatewayConfig.storage). */
export interface StorageSettings {
  readonly databaseUrl?: string;
  readonly dataDir: string;
  readonly encryptionKey?: string;
  readonly oldEncryptionKeys: readonly string[];
}

/** The database of connections and the audit log, opened on first use, and the sealer of connect flows. */
export interface ConnectionStorage {
  readonly database: () => Promise<OpenDatabase>;
  readonly store: () => Promise<ConnectionStore>;
  /** Seals connect tickets, OAuth states and flow cookies, one key per purpose. */
  readonly sealer: Sealer;
  /** A box of its own for `purpose` (derived from the encryption key; the key is read on first use). */
  readonly secretBox: (purpose: string) => SecretBox;
  close(): Promise<void>;
}

/** The keys that seal connection secrets: from the environment, or (embedded mode only) a generated file. */
const keyring = (settings: StorageSettings, warn: (message: string) => void): SecretBox => {
  const { encryptionKey: given, oldEncryptionKeys, dataDir } = settings;
  let current = given;
  if (!current) {
    const file = join(dataDir, 'encryption.key');
    if (existsSync(file)) current = readFileSync(file, 'utf8').trim();
    else {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      current = newEncryptionKey();
      writeFileSync(file, `${current}\n`, { mode: 0o600, flag: 'wx' });
      warn(
        `GATEWAY_ENCRYPTION_KEY is not set: generated one into ${file}. Keep that file with the data dir, or set the variable.`,
      );
    }
  }
  return new SecretBox(encryptionKey(current), oldEncryptionKeys.map(encryptionKey));
};

/**
 * PostgreSQL when a URL is given, else the embedded database in the data dir; nothing is opened (and no key
 * read or made) until something needs it, so memory-mode start-up touches no disk.
 * `onDatabaseFault` hears of PostgreSQL sessions lost outside a query (logged; never fatal).
 */
export const connectionStorage = (
  settings: StorageSettings,
  logger: Logger,
  onDatabaseFault?: DatabaseFaultListener,
): ConnectionStorage => {
  let box: SecretBox | undefined;
  const keys = () => (box ??= keyring(settings, (m) => logger.warn(m)));
  let opening: Promise<OpenDatabase> | undefined;
  const database = (): Promise<OpenDatabase> =>
    (opening ??= (async () => {
      const started = performance.now();
      const db = settings.databaseUrl
        ? await openPostgres(settings.databaseUrl, POSTGRES_POOL_SIZE, onDatabaseFault)
        : await openEmbedded(settings.dataDir);
      logger.info({ dialect: db.dialect, ms: Math.round(performance.now() - started) }, 'database open');
      return db;
    })().catch((error: unknown) => {
      opening = undefined; // the next call tries again
      throw error;
    }));
  let connectionStore: ConnectionStore | undefined;
  // The SQL store (and with it Kysely, some 260 modules) is loaded on first use: memory mode never loads it.
  const store = async (): Promise<ConnectionStore> => {
    if (connectionStore) return connectionStore;
    const [{ SqlConnectionStore }, { db }] = await Promise.all([import('./sql-connection-store.js'), database()]);
    return (connectionStore ??= new SqlConnectionStore(db, keys(), () => Promise.resolve()));
  };

  // One key per purpose (connect ticket, OAuth state, flow cookie), derived from the encryption key, with
  // the purpose as authenticated data too: a value sealed for one purpose never opens for another.
  const boxes = new Map<SealPurpose, SecretBox>();
  const purposeBox = (purpose: SealPurpose): SecretBox => {
    let found = boxes.get(purpose);
    if (!found) boxes.set(purpose, (found = keys().forPurpose(purpose)));
    return found;
  };
  const sealer: Sealer = {
    seal: (purpose, value) => {
      const sealed = purposeBox(purpose).seal(value, purpose);
      return `${sealed.keyId}.${sealed.sealed}`;
    },
    open: (purpose, value) => {
      const [keyId, ...rest] = value.split('.');
      try {
        return purposeBox(purpose).open({ keyId: keyId ?? '', sealed: rest.join('.') }, purpose);
      } catch {
        return undefined;
      }
    },
  };
  return {
    database,
    store,
    sealer,
    secretBox: (purpose) => keys().forPurpose(purpose),
    close: async () => {
      if (!opening) return;
      const opened = await opening.catch(() => undefined);
      await opened?.db.destroy();
    },
  };
};
