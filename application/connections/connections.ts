import { randomUUID } from 'node:crypto';
import { conflict, forbidden, invalidInput, notFound, type GatewayError } from '../../domain/shared/errors.js';
import { E, type Either } from '../../domain/shared/fp.js';
import { isAllowed } from '../runtime/define-tool.js';
import type { Principal } from '../../ports/authenticator.js';
import type { Clock } from '../../ports/clock.js';
import {
  isVendor,
  VENDOR_LABELS,
  VENDORS,
  type ConnectionStore,
  type ConnectionSummary,
  type Vendor,
} from '../../ports/connection-store.js';
import type { OAuthConnector, VendorConnectors } from '../../ports/vendor-connector.js';
import type { AuditLog } from '../../ports/audit-log.js';
import { listConnections, listingOf, type ConnectionListing, type ConnectionScope } from './connection-listing.js';
import { revokeAtVendor } from './revoke-at-vendor.js';
import type { OneTimeMarks } from '../../ports/one-time-marks.js';
import {
  flowCookieName,
  openBrowserBinding,
  openState,
  sameFlow,
  sealed,
  type Sealer,
  type Ticket,
} from './connect-flow.js';
import { authorizeAt, heldBy, readTicket, type FlowCookie, type LinkHolder } from './connect-link.js';

export type { Sealer, SealPurpose } from './connect-flow.js';
export type { FlowCookie, LinkHolder } from './connect-link.js';

export type { ConnectionListing, ConnectionScope } from './connection-listing.js';

export const MANAGE_PERMISSION = 'connections:manage';
const TICKET_TTL_MS = 60 * 60 * 1000;
/** A used state's mark outlives the state by this much (instances' clocks may differ a little). */
const MARK_MARGIN_SECONDS = 60;

export interface ConnectionsDeps {
  /** The store, opened on first use (the embedded file or PostgreSQL). */
  readonly store: () => Promise<ConnectionStore>;
  readonly connectors: VendorConnectors;
  readonly clock: Clock;
  readonly sealer: Sealer;
  /** Where used OAuth states are marked, once, for every instance (Redis when configured). */
  readonly marks: OneTimeMarks;
  readonly publicBaseUrl: string;
  /** The connection the environment's credentials make for a tenant (the default one only), if any. */
  readonly environment: (tenant: string, vendor: Vendor) => ConnectionSummary | undefined;
  /** Vendors whose group is backed by the vendor (in memory mode a connection would change nothing). */
  readonly inUse: ReadonlySet<Vendor>;
  /**
   * Told when a tenant's connection changes, so cached adapters are dropped (here and, announced, on the
   * other instances); awaited before the change is answered, and never rejects.
   */
  readonly onChange: (tenant: string, vendor: Vendor) => void | Promise<void>;
  /** The audit log, which records every connection change. */
  readonly audit?: AuditLog;
}

/**
 * Connections of a tenant to its vendors: listing, key-based connections checked once against the
 * vendor, the OAuth authorization-code flow with PKCE, and disconnecting (revoked at the vendor where it
 * can be). Tenant-wide connections need `connections:manage`; a user may manage their own.
 *
 * Every OAuth flow starts with a browser opening a connect link (`/connect/{vendor}?ticket=`): the gateway
 * sets a flow cookie there and sends the browser to the vendor with a sealed state. The callback finishes
 * only with that state, unexpired, not used before (a mark set once in the shared store), and the cookie
 * of the same flow (same tenant, owner and principal): a state seen elsewhere, replayed, or finished in
 * another browser connects nothing. The PKCE verifier never leaves the sealed state.
 */
export class Connections {
  constructor(private readonly deps: ConnectionsDeps) {}

  /** One audit row per connection change (best effort: the change itself has happened). */
  async #audited(
    change: 'connections.connect' | 'connections.disconnect',
    tenant: string,
    principal: string,
    vendor: Vendor,
    owner: string,
  ): Promise<void> {
    await this.deps.onChange(tenant, vendor);
    await this.deps.audit
      ?.record({
        at: this.deps.clock.now(),
        tenant,
        principal,
        tool: change,
        vendor,
        targets: [owner === '' ? 'tenant-wide' : owner],
        status: 200,
        requestId: randomUUID(),
      })
      .catch(() => undefined);
  }

  get redirectUri(): string {
    return `${this.deps.publicBaseUrl}/oauth/callback`;
  }

  /** The authorize endpoint (needs a bearer token: for API clients). */
  connectUrl(vendor: Vendor): string {
    return `${this.deps.publicBaseUrl}/v1/connections/${vendor}/authorize`;
  }

  /**
   * A link an agent relays to its person: valid for an hour, it asks whoever opens it to sign in to the
   * gateway, and only the caller it was made for goes on to the vendor's authorization for the caller's
   * tenant (tenant-wide when the caller may manage connections, else the caller's own).
   */
  connectLink(principal: Principal, vendor: Vendor): string {
    return this.#link(
      principal.tenant,
      isAllowed(principal, MANAGE_PERMISSION) ? '' : principal.id,
      principal.id,
      vendor,
    );
  }

  #link(tenant: string, owner: string, principal: string, vendor: Vendor): string {
    const ticket: Ticket = {
      typ: 'ticket',
      t: tenant,
      o: owner,
      p: principal,
      v: vendor,
      e: this.deps.clock.now().getTime() + TICKET_TTL_MS,
    };
    return `${this.deps.publicBaseUrl}/connect/${vendor}?ticket=${encodeURIComponent(sealed(this.deps.sealer, ticket))}`;
  }

  /** The gateway is served over https (its flow cookies are Secure). */
  get secureCookies(): boolean {
    return this.deps.publicBaseUrl.startsWith('https://');
  }

  /** The name of the flow cookie that goes with a state (the callback reads it, and clears it). */
  flowCookieName(state: string): string {
    return flowCookieName(state, this.secureCookies);
  }

  /** What the connect page says before anyone signs in: the vendor and workspace of a valid, unexpired link. */
  readLink(
    vendorName: string,
    sealedTicket: string | undefined,
  ): Either<GatewayError, { label: string; tenant: string }> {
    const ticket = readTicket(this.deps.sealer, this.deps.clock.now().getTime(), vendorName, sealedTicket);
    if (E.isLeft(ticket)) return ticket;
    const oauth = this.#oauthOf(ticket.right.v);
    if (E.isLeft(oauth)) return oauth; // said before anyone signs in: a key-based vendor has nothing to open
    return E.right({
      label: this.deps.connectors.get(ticket.right.v)?.label ?? ticket.right.v,
      tenant: ticket.right.t,
    });
  }

  #oauthOf(v: Vendor): Either<GatewayError, OAuthConnector> {
    const oauth = this.deps.connectors.get(v)?.oauth;
    return oauth
      ? E.right(oauth)
      : E.left(
          invalidInput(
            `${this.deps.connectors.get(v)?.label ?? v} connects with an API key: an administrator of the workspace sends it to POST ${this.deps.publicBaseUrl}/v1/connections/${v} (see /docs).`,
            'vendor',
            'a vendor with an OAuth app',
          ),
        );
  }

  /**
   * Opens a connect link for the person who signed in on the connect page (connect-link.ts): the vendor's
   * authorization page for the ticket's tenant and owner, and the cookie the browser keeps for the callback.
   */
  openLink(
    vendorName: string,
    sealedTicket: string | undefined,
    holder: LinkHolder,
  ): Either<GatewayError, { readonly location: string; readonly cookie: FlowCookie }> {
    const read = readTicket(this.deps.sealer, this.deps.clock.now().getTime(), vendorName, sealedTicket);
    const ticket = E.isLeft(read) ? read : heldBy(read.right, holder);
    if (E.isLeft(ticket)) return ticket;
    const oauth = this.#oauthOf(ticket.right.v);
    if (E.isLeft(oauth)) return oauth;
    const o = oauth.right;
    return E.right(
      authorizeAt(o, ticket.right, {
        sealer: this.deps.sealer,
        nowMs: this.deps.clock.now().getTime(),
        redirectUri: this.redirectUri,
        secure: this.secureCookies,
      }),
    );
  }

  #owner(principal: Principal, scope: ConnectionScope): Either<GatewayError, string> {
    if (scope === 'user') return E.right(principal.id);
    return isAllowed(principal, MANAGE_PERMISSION)
      ? E.right('')
      : E.left(
          forbidden(
            `Tenant-wide connections need the "${MANAGE_PERMISSION}" permission; without it, connect for yourself with scope=user.`,
            { permission: MANAGE_PERMISSION },
          ),
        );
  }

  #vendor(name: string): Either<GatewayError, Vendor> {
    return isVendor(name)
      ? E.right(name)
      : E.left(notFound('vendor', name, `No vendor "${name}". Vendors: ${VENDORS.join(', ')}.`));
  }

  async list(principal: Principal): Promise<ConnectionListing[]> {
    const stored = await (await this.deps.store()).list(principal.tenant);
    return listConnections(principal, stored, {
      environment: this.deps.environment,
      inUse: this.deps.inUse,
      connect: (vendor) => this.#connect(vendor),
    });
  }

  #connect(vendor: Vendor): ConnectionListing['connect'] {
    const c = this.deps.connectors.get(vendor);
    return {
      ...(c?.oauth ? { authorize_url: this.connectUrl(vendor) } : {}),
      ...(c?.checkKey ? { key_endpoint: `${this.deps.publicBaseUrl}/v1/connections/${vendor}` } : {}),
    };
  }

  /** Stores a key-based credential after the vendor accepted it once. */
  async connectKey(
    principal: Principal,
    vendorName: string,
    key: unknown,
    scope: ConnectionScope,
  ): Promise<Either<GatewayError, ConnectionListing>> {
    const vendor = this.#vendor(vendorName);
    if (E.isLeft(vendor)) return vendor;
    const connector = this.deps.connectors.get(vendor.right);
    if (!connector?.checkKey)
      return E.left(
        invalidInput(
          `${connector?.label ?? vendor.right} connects by OAuth only: open ${this.connectUrl(vendor.right)}.`,
          'key',
          'not given',
        ),
      );
    if (typeof key !== 'string' || key.trim().length < 8 || key.length > 4096 || /\s/.test(key.trim()))
      return E.left(invalidInput('The key is a string of 8 to 4096 characters without spaces.', 'key', 'string'));
    const owner = this.#owner(principal, scope);
    if (E.isLeft(owner)) return owner;
    const account = await connector.checkKey(key);
    if (E.isLeft(account)) return account;
    const store = await this.deps.store();
    const connection = {
      tenant: principal.tenant,
      vendor: vendor.right,
      owner: owner.right,
      kind: 'key' as const,
      status: 'connected' as const,
      label: account.right.label,
      details: account.right.details,
      secret: account.right.secret,
      connectedAt: this.deps.clock.now(),
    };
    await store.save(connection);
    await this.#audited('connections.connect', principal.tenant, principal.id, vendor.right, owner.right);
    return E.right(listingOf(connection, (vendor) => this.#connect(vendor)));
  }

  /**
   * Where to send a person to connect by OAuth: a connect link for the caller's tenant and the scope's
   * owner. The person's browser opens it, so that the flow is bound to that browser (see the class).
   */
  authorize(principal: Principal, vendorName: string, scope: ConnectionScope): Either<GatewayError, string> {
    const vendor = this.#vendor(vendorName);
    if (E.isLeft(vendor)) return vendor;
    const oauth = this.deps.connectors.get(vendor.right)?.oauth;
    if (!oauth)
      return E.left(
        invalidInput(
          `${vendor.right} has no OAuth app configured on this gateway; connect it with a key (POST /v1/connections/${vendor.right}).`,
          'vendor',
          'a vendor with an OAuth app',
        ),
      );
    const owner = this.#owner(principal, scope);
    if (E.isLeft(owner)) return owner;
    return E.right(this.#link(principal.tenant, owner.right, principal.id, vendor.right));
  }

  /**
   * Finishes the flow: checks the state and that this browser started its flow (`flowCookie`, the value
   * of the cookie named by flowCookieName), uses the state up, trades the code, stores the tokens. The
   * shared store failing to mark the state rejects (the caller answers 503; nothing is connected).
   */
  async callback(
    query: Readonly<Record<string, string>>,
    flowCookie: string | undefined,
  ): Promise<Either<GatewayError, { vendor: Vendor; label: string; tenant: string }>> {
    const state = openState(this.deps.sealer, query['state']);
    if (!state)
      return E.left(
        invalidInput(
          'This link is not a connection in progress (unknown state).',
          'state',
          'the state the gateway issued',
        ),
      );
    if (state.e < this.deps.clock.now().getTime())
      return E.left(
        invalidInput(
          'This connection attempt expired (10 minutes). Start it again.',
          'state',
          'a state younger than 10 minutes',
        ),
      );
    if (!sameFlow(state, openBrowserBinding(this.deps.sealer, flowCookie)))
      return E.left(
        invalidInput(
          'This connection was started in another browser (or this browser no longer has its cookie): open the connect link again in this browser.',
          'state',
          'the state of a connection this browser started',
        ),
      );
    const ttlSeconds = Math.ceil((state.e - this.deps.clock.now().getTime()) / 1000) + MARK_MARGIN_SECONDS;
    if (!(await this.deps.marks.consume(`oauth-state:${state.f}`, ttlSeconds)))
      return E.left(
        invalidInput(
          'This connection link was already used. Start the connection again.',
          'state',
          'a state not used before',
        ),
      );
    if (query['error'])
      return E.left(
        forbidden(`The vendor did not grant access: ${query['error_description'] ?? query['error']}.`, {
          vendor: state.v,
        }),
      );
    const code = query['code'];
    if (!code) return E.left(invalidInput('The callback brought no code.', 'code', 'string'));
    const oauth = this.deps.connectors.get(state.v)?.oauth;
    if (!oauth)
      return E.left(invalidInput(`${state.v} has no OAuth app configured.`, 'vendor', 'a vendor with an OAuth app'));
    const account = await oauth.exchange({ code, redirectUri: this.redirectUri, codeVerifier: state.k, query });
    if (E.isLeft(account)) return account;
    await (
      await this.deps.store()
    ).save({
      tenant: state.t,
      vendor: state.v,
      owner: state.o,
      kind: 'oauth',
      status: 'connected',
      label: account.right.label,
      details: account.right.details,
      secret: account.right.secret,
      connectedAt: this.deps.clock.now(),
    });
    await this.#audited('connections.connect', state.t, state.p, state.v, state.o);
    return E.right({ vendor: state.v, label: account.right.label, tenant: state.t });
  }

  /** Revokes at the vendor where it can (best effort: a revoke that fails or throws never keeps the connection), then forgets. */
  async disconnect(
    principal: Principal,
    vendorName: string,
    scope: ConnectionScope,
  ): Promise<Either<GatewayError, { removed: boolean; revoke?: string }>> {
    const vendor = this.#vendor(vendorName);
    if (E.isLeft(vendor)) return vendor;
    const owner = this.#owner(principal, scope);
    if (E.isLeft(owner)) return owner;
    const store = await this.deps.store();
    const existing = await store.find(principal.tenant, vendor.right, owner.right);
    if (!existing && owner.right === '' && this.deps.environment(principal.tenant, vendor.right))
      return E.left(
        conflict(
          `The ${VENDOR_LABELS[vendor.right]} connection of this tenant comes from the gateway's environment variables; an operator removes it by unsetting them and restarting. A connection made through the API would be used in its place.`,
        ),
      );
    if (!existing) return E.right({ removed: false });
    const revoke = await revokeAtVendor(this.deps.connectors.get(vendor.right), store, existing);
    const removed = await store.remove(principal.tenant, vendor.right, owner.right);
    await this.#audited('connections.disconnect', principal.tenant, principal.id, vendor.right, owner.right);
    return E.right({ removed, ...(revoke ? { revoke } : {}) });
  }
}
