import { createHash } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { OpenDatabase } from './databases.js';
import type { GatewayDatabase, SqlDialect } from './schema.js';
import type { SecretBox } from './secret-box.js';

// The authorization server's storage (issue 29) in the gateway's database, PostgreSQL or the embedded SQLite:
// oidc-provider's models (clients, grants, sessions, interactions, authorization codes, refresh tokens...) in
// one table, `gateway_oauth`, with their own migrations (table `gateway_oauth_migrations`), so the schema of
// schema.ts is untouched.
//
// Nothing stored can be used as presented: a row's id is the SHA-256 of the model's id (a refresh token or an
// authorization code *is* its id), and the payload is sealed (AES-256-GCM, the row's model and hashed id as
// authenticated data) under a key of its own purpose. Beside it, in clear, only what the grants API and the
// clean-up need: the grant, the account and the client, and the expiry.

export interface OAuthTable {
  /** oidc-provider's model name: Grant, RefreshToken, AuthorizationCode, Session, Interaction, Client... */
  model: string;
  /** Hex SHA-256 of the model's id. */
  id: string;
  /** The sealed JSON payload and the id of the key that sealed it. */
  payload: string;
  key_id: string;
  grant_id: string | null;
  /** Hex SHA-256 of a session's uid (sessions are found by it). */
  uid: string | null;
  /** Hex SHA-256 of a device flow's user code (unused while the device flow is off). */
  user_code: string | null;
  account_id: string | null;
  client_id: string | null;
  expires_at: string | null;
  consumed_at: string | null;
  updated_at: string;
}

export interface OAuthDatabase {
  gateway_oauth: OAuthTable;
}

const migrations: Record<string, Migration> = {
  '2026-11-27-01-oauth': {
    up: async (db: Kysely<unknown>) => {
      await db.schema
        .createTable('gateway_oauth')
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'text')
        .addColumn('uid', 'text')
        .addColumn('user_code', 'text')
        .addColumn('account_id', 'text')
        .addColumn('client_id', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('consumed_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('gateway_oauth_pk', ['model', 'id'])
        .execute();
      await db.schema.createIndex('gateway_oauth_grant').on('gateway_oauth').columns(['grant_id']).execute();
      await db.schema.createIndex('gateway_oauth_uid').on('gateway_oauth').columns(['model', 'uid']).execute();
      await db.schema
        .createIndex('gateway_oauth_account')
        .on('gateway_oauth')
        .columns(['account_id', 'client_id'])
        .execute();
      await db.schema.createIndex('gateway_oauth_expires').on('gateway_oauth').columns(['expires_at']).execute();
    },
  },
};

/**
 * Brings the authorization server's tables up to date: call it once after the database is opened (the store
 * below does, on first use). On PostgreSQL Kysely runs it in a transaction under an advisory lock.
 */
export const migrateOAuth = async (db: Kysely<GatewayDatabase>, _dialect: SqlDialect): Promise<void> => {
  const { Migrator } = await import('kysely'); // loaded with the database, not with the gateway
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    migrationTableName: 'gateway_oauth_migrations',
    migrationLockTableName: 'gateway_oauth_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`OAuth storage migration ${failed ?? ''} failed: ${String(error)}`, { cause: error });
  }
};

const hash = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

const contextOf = (model: string, id: string): string => `oauth\n${model}\n${id}`;

export interface OAuthStoreOptions {
  /** The gateway's database, opened on first use (`ConnectionStorage.database`). */
  readonly database: () => Promise<OpenDatabase>;
  /**
   * Seals payloads; give it a box of its own purpose (`box.forPurpose('oauth-store')`), or a function that
   * makes it on first use (so that no key is read or generated before the store is used).
   */
  readonly box: SecretBox | (() => SecretBox);
  readonly now?: () => Date;
  /**
   * Issue 38: a dynamically registered client that no grant was made for is deleted after this many seconds
   * (default a day); its first grant lifts the expiry.
   */
  readonly unusedClientTtlSeconds?: number;
  /** At most this many such unused clients are kept; past it the oldest are deleted (default 10,000). */
  readonly maxUnusedClients?: number;
}

export interface OAuthStore {
  /** oidc-provider's `adapter` option. */
  readonly adapter: AdapterFactory;
  /** Deletes rows past their expiry; returns how many. Call it now and then (every hour is plenty). */
  purgeExpired(): Promise<number>;
  /**
   * The live grants of an account (`tenant|principalId`), newest first, optionally for one client: what the
   * consent remembers and the grants API lists. Scopes are in the sealed payload (`provider.Grant.find`).
   */
  grants(accountId: string, clientId?: string): Promise<StoredGrant[]>;
  /** The live grants of every account of a tenant (account ids `tenant|...`), newest first: the grants API. */
  grantsOfTenant(tenant: string): Promise<StoredGrant[]>;
  /** One live grant by its id (the clear columns only), or undefined. */
  grant(grantId: string): Promise<StoredGrant | undefined>;
}

export interface StoredGrant {
  readonly grantId: string;
  readonly accountId: string;
  readonly clientId: string;
  readonly updatedAt: Date;
  readonly expiresAt: Date | undefined;
}

/** oidc-provider's storage over the gateway's SQL database. */
export const sqlOAuthStore = (options: OAuthStoreOptions): OAuthStore => {
  const now = options.now ?? (() => new Date());
  let made: SecretBox | undefined;
  const box = (): SecretBox => (made ??= typeof options.box === 'function' ? options.box() : options.box);
  let ready: Promise<Kysely<OAuthDatabase>> | undefined;
  const db = (): Promise<Kysely<OAuthDatabase>> =>
    (ready ??= (async () => {
      const open = await options.database();
      await migrateOAuth(open.db, open.dialect);
      return open.db as unknown as Kysely<OAuthDatabase>;
    })().catch((error: unknown) => {
      ready = undefined; // a database that was down is tried again on the next request
      throw error;
    }));

  const unusedTtlMs = (options.unusedClientTtlSeconds ?? 86_400) * 1000;
  const maxUnused = options.maxUnusedClients ?? 10_000;

  /** A client's expiry: none once a grant was made for it, else the unused-client lifetime. */
  const clientExpiry = async (clientId: string, at: Date): Promise<string | null> => {
    const granted = await (
      await db()
    )
      .selectFrom('gateway_oauth')
      .select('id')
      .where('model', '=', 'Grant')
      .where('client_id', '=', clientId)
      .executeTakeFirst();
    return granted ? null : new Date(at.getTime() + unusedTtlMs).toISOString();
  };

  /** Deletes the oldest unused clients past the bound. */
  const evictUnused = async (): Promise<void> => {
    const d = await db();
    const count = await d
      .selectFrom('gateway_oauth')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('model', '=', 'Client')
      .where('expires_at', 'is not', null)
      .executeTakeFirst();
    const excess = Number(count?.n ?? 0) - maxUnused;
    if (excess <= 0) return;
    const oldest = await d
      .selectFrom('gateway_oauth')
      .select('id')
      .where('model', '=', 'Client')
      .where('expires_at', 'is not', null)
      .orderBy('updated_at', 'asc')
      .limit(excess)
      .execute();
    const ids = oldest.map((r) => r.id);
    if (ids.length) await d.deleteFrom('gateway_oauth').where('model', '=', 'Client').where('id', 'in', ids).execute();
  };

  const live = (nowIso: string) => (row: { expires_at: string | null }) =>
    row.expires_at === null || row.expires_at > nowIso;

  const adapterFor = (model: string): Adapter => {
    const read = async (column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> => {
      const row = await (
        await db()
      )
        .selectFrom('gateway_oauth')
        .selectAll()
        .where('model', '=', model)
        .where(column, '=', hash(value))
        .executeTakeFirst();
      if (!row || !live(now().toISOString())(row)) return undefined;
      const payload = JSON.parse(
        box().open({ keyId: row.key_id, sealed: row.payload }, contextOf(model, row.id)),
      ) as AdapterPayload;
      return row.consumed_at ? { ...payload, consumed: Math.floor(Date.parse(row.consumed_at) / 1000) } : payload;
    };

    return {
      upsert: async (id, payload, expiresIn) => {
        const key = hash(id);
        const sealed = box().seal(JSON.stringify(payload), contextOf(model, key));
        const at = now();
        const values = {
          payload: sealed.sealed,
          key_id: sealed.keyId,
          grant_id: model === 'Grant' ? id : (payload.grantId ?? null),
          uid: payload.uid ? hash(payload.uid) : null,
          user_code: payload.userCode ? hash(payload.userCode) : null,
          account_id: payload.accountId ?? null,
          client_id: payload.clientId ?? (model === 'Client' ? (payload.client_id ?? null) : null),
          expires_at: expiresIn
            ? new Date(at.getTime() + expiresIn * 1000).toISOString()
            : model === 'Client'
              ? await clientExpiry(id, at)
              : null,
          updated_at: at.toISOString(),
        };
        await (
          await db()
        )
          .insertInto('gateway_oauth')
          .values({ model, id: key, consumed_at: null, ...values })
          .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(values))
          .execute();
        if (model === 'Client' && values.expires_at !== null) await evictUnused();
        // The client's first grant: it is kept from now on (issue 38, unused registrations expire).
        if (model === 'Grant' && values.client_id)
          await (
            await db()
          )
            .updateTable('gateway_oauth')
            .set({ expires_at: null })
            .where('model', '=', 'Client')
            .where('id', '=', hash(values.client_id))
            .where('expires_at', 'is not', null)
            .execute();
      },
      find: (id) => read('id', id),
      findByUid: (uid) => read('uid', uid),
      findByUserCode: (userCode) => read('user_code', userCode),
      consume: async (id) => {
        // Atomic: of two requests presenting the same code or refresh token at once, one consumes it.
        const result = await (
          await db()
        )
          .updateTable('gateway_oauth')
          .set({ consumed_at: now().toISOString() })
          .where('model', '=', model)
          .where('id', '=', hash(id))
          .where('consumed_at', 'is', null)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) {
          // oidc-provider is loaded by now (it is the one calling); its error answers 400 invalid_grant.
          const { errors } = await import('oidc-provider');
          throw new errors.InvalidGrant('grant request is invalid');
        }
      },
      destroy: async (id) => {
        await (await db()).deleteFrom('gateway_oauth').where('model', '=', model).where('id', '=', hash(id)).execute();
      },
      revokeByGrantId: async (grantId) => {
        await (
          await db()
        )
          .deleteFrom('gateway_oauth')
          .where('model', '=', model)
          .where('grant_id', '=', grantId)
          .execute();
      },
    };
  };

  const grantRows = async () =>
    (await db())
      .selectFrom('gateway_oauth')
      .select(['grant_id', 'account_id', 'client_id', 'updated_at', 'expires_at'])
      .where('model', '=', 'Grant');
  type GrantRow = {
    grant_id: string | null;
    account_id: string | null;
    client_id: string | null;
    updated_at: string;
    expires_at: string | null;
  };
  const storedGrants = (rows: readonly GrantRow[]): StoredGrant[] => {
    const nowIso = now().toISOString();
    return rows.filter(live(nowIso)).map((row) => ({
      grantId: row.grant_id ?? '',
      accountId: row.account_id ?? '',
      clientId: row.client_id ?? '',
      updatedAt: new Date(row.updated_at),
      expiresAt: row.expires_at ? new Date(row.expires_at) : undefined,
    }));
  };

  return {
    adapter: adapterFor,
    grants: async (accountId, clientId) => {
      let query = (await grantRows()).where('account_id', '=', accountId);
      if (clientId !== undefined) query = query.where('client_id', '=', clientId);
      return storedGrants(await query.orderBy('updated_at', 'desc').execute());
    },
    grantsOfTenant: async (tenant) => {
      // `tenant|` as a LIKE prefix, its `_` (a tenant id may hold one), `%` and `\` escaped; the same prefix is
      // checked again on each row, so that nothing but this tenant's accounts can come back whatever the
      // database's LIKE does.
      const prefix = `${tenant}|`;
      const pattern = `${prefix.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
      // kysely is loaded with the database, not at start (bench/startup.ts)
      const { sql } = await import('kysely');
      const rows = await (
        await grantRows()
      )
        .where(sql<boolean>`account_id like ${pattern} escape '\\'`)
        .orderBy('updated_at', 'desc')
        .execute();
      return storedGrants(rows.filter((row) => row.account_id?.startsWith(prefix)));
    },
    grant: async (grantId) => {
      const row = await (await grantRows()).where('id', '=', hash(grantId)).executeTakeFirst();
      return row ? storedGrants([row])[0] : undefined;
    },
    purgeExpired: async () => {
      const result = await (
        await db()
      )
        .deleteFrom('gateway_oauth')
        .where('expires_at', '<=', now().toISOString())
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
};
