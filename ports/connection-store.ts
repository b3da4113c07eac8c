import type { ServiceIdentifier } from 'inversify';

/** The vendors a tenant can connect. */
export const VENDORS = ['hubspot', 'podio', 'sharefile', 'batchdata'] as const;
export type Vendor = (typeof VENDORS)[number];

export const isVendor = (value: string): value is Vendor => (VENDORS as readonly string[]).includes(value);

/** A vendor's name as a person (or a model) reads it. */
export const VENDOR_LABELS: Readonly<Record<Vendor, string>> = {
  hubspot: 'HubSpot',
  podio: 'Podio',
  sharefile: 'ShareFile',
  batchdata: 'BatchData',
};

/** Whether a connection still works: a refresh the vendor refused needs a person to connect again. */
export type ConnectionStatus = 'connected' | 'needs_reauthorization';

/** What authenticates the gateway at the vendor: never shown, encrypted at rest. */
export interface ConnectionSecret {
  readonly accessToken?: string;
  readonly refreshToken?: string;
  /** When the access token expires (ms since the epoch). */
  readonly expiresAt?: number;
  /** A key-based credential (BatchData API key, HubSpot private-app token). */
  readonly apiKey?: string;
  /**
   * Other ways a vendor signs in, given only by the environment and never stored: Podio's app
   * authentication (`appId`, `appToken`) or its password grant (`username`, `password`).
   */
  readonly signIn?: Readonly<Record<string, string>>;
}

/**
 * One tenant's credentials for one vendor: tenant-wide (`owner` empty) or one user's (`owner` is the
 * principal id), for vendors whose accounts are per user.
 */
export interface Connection {
  readonly tenant: string;
  readonly vendor: Vendor;
  /** The principal id of the user who owns it; '' for a tenant-wide connection. */
  readonly owner: string;
  readonly kind: 'oauth' | 'key';
  readonly status: ConnectionStatus;
  /** The account as a person recognises it (portal, account email, subdomain). */
  readonly label: string;
  /** Non-secret facts the adapter needs (ShareFile's subdomain and apicp, HubSpot's portal and uiDomain). */
  readonly details: Readonly<Record<string, string>>;
  readonly secret: ConnectionSecret;
  readonly connectedAt: Date;
  readonly refreshedAt?: Date;
  /**
   * `environment`: the default tenant's connection made from the environment's credentials (listed, never
   * stored, not deletable through the API). Absent for connections in the store.
   */
  readonly origin?: 'environment';
}

/** A connection without its secret: what listings show. */
export type ConnectionSummary = Omit<Connection, 'secret'>;

/** Where connections live (PostgreSQL, or the embedded database). Secrets are encrypted by the store. */
export interface ConnectionStore {
  /** Every connection of a tenant, secrets left out. */
  list(tenant: string): Promise<ConnectionSummary[]>;
  /**
   * Stored connections of one vendor in any tenant whose `details[key]` is `value` (at most `limit`, secrets
   * left out): who else uses the same vendor account, e.g. before a revoke that would end its grant.
   */
  withDetail(vendor: Vendor, key: string, value: string, limit: number): Promise<ConnectionSummary[]>;
  /** The connection of `owner` ('' for tenant-wide), with its secret. */
  find(tenant: string, vendor: Vendor, owner: string): Promise<Connection | undefined>;
  /** Stores a connection, replacing the one with the same tenant, vendor and owner. */
  save(connection: Connection): Promise<void>;
  /** Replaces the secret after a refresh (durable before it resolves). */
  saveSecret(tenant: string, vendor: Vendor, owner: string, secret: ConnectionSecret, refreshedAt: Date): Promise<void>;
  setStatus(tenant: string, vendor: Vendor, owner: string, status: ConnectionStatus): Promise<void>;
  /** Forgets a connection; false when there was none. */
  remove(tenant: string, vendor: Vendor, owner: string): Promise<boolean>;
  close(): Promise<void>;
}

export const ConnectionStore = Symbol.for('ConnectionStore') as ServiceIdentifier<ConnectionStore>;
