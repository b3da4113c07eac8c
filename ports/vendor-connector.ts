import type { ServiceIdentifier } from 'inversify';
import type { GatewayError } from '../domain/shared/errors.js';
import type { Either } from '../domain/shared/fp.js';
import type { ConnectionSecret, Vendor } from './connection-store.js';

/** What a vendor says about the account a credential opens. */
export interface ConnectedAccount {
  readonly secret: ConnectionSecret;
  readonly label: string;
  readonly details: Readonly<Record<string, string>>;
}

/** The OAuth authorization-code flow at one vendor. */
export interface OAuthConnector {
  /** Where to send a person: the vendor's authorization page with our state, redirect and PKCE challenge. */
  authorizeUrl(p: { readonly state: string; readonly redirectUri: string; readonly codeChallenge: string }): string;
  /** Trades the code the callback brought for tokens (`query` is the whole callback query: ShareFile adds its host). */
  exchange(p: {
    readonly code: string;
    readonly redirectUri: string;
    readonly codeVerifier: string;
    readonly query: Readonly<Record<string, string>>;
  }): Promise<Either<GatewayError, ConnectedAccount>>;
}

/**
 * How the gateway connects a tenant to a vendor: by a key checked once against the vendor, by OAuth, or
 * both; and how it lets go (revocation at the vendor, where the vendor has it).
 */
export interface VendorConnector {
  readonly vendor: Vendor;
  /** The vendor's name as a person reads it. */
  readonly label: string;
  /** Key-based connections: checks the key against the vendor once and names the account. */
  readonly checkKey?: (key: string) => Promise<Either<GatewayError, ConnectedAccount>>;
  readonly oauth?: OAuthConnector;
  /**
   * Revokes at the vendor (best effort: the connection is forgotten either way), given the connection's
   * secret, its details (the account's hosts, for ShareFile) and the details of the tenant's other
   * connections of the vendor (a revoke that would end their access too is skipped), and `sameAccount`, which
   * counts the other stored connections of the vendor in any tenant whose `details[key]` is `value`. May answer
   * a sentence saying what happened, which the disconnect's answer carries.
   */
  readonly revoke?: (
    secret: ConnectionSecret,
    details: Readonly<Record<string, string>>,
    others: readonly Readonly<Record<string, string>>[],
    sameAccount?: (key: string, value: string) => Promise<number>,
  ) => Promise<string | void>;
}

/** Every vendor's connector, by vendor. */
export type VendorConnectors = ReadonlyMap<Vendor, VendorConnector>;
export const VendorConnectors = Symbol.for('VendorConnectors') as ServiceIdentifier<VendorConnectors>;
