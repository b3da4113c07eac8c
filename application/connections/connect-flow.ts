import { createHash } from 'node:crypto';
import * as t from 'io-ts';
import { E } from '../../domain/shared/fp.js';
import { VENDORS, type Vendor } from '../../ports/connection-store.js';

// The three sealed values of the OAuth connect flow. Each is sealed for its own purpose (the sealer
// derives a key per purpose, so one never opens as another) and names its type inside as well:
// - the connect ticket, in a link a person opens (tenant, owner, who asked, vendor);
// - the OAuth state, the round trip through the vendor (the same, plus the flow id and the PKCE verifier);
// - the flow cookie, kept by the browser that opened the link (the same flow id, tenant, owner, principal).

/** What a seal is for: a value sealed for one purpose does not open for another. */
export type SealPurpose = 'connect-ticket' | 'oauth-state' | 'connect-browser' | 'connect-resume';

/** Seals small JSON values for a round trip through a browser: tamper-proof, private, one key per purpose. */
export interface Sealer {
  seal(purpose: SealPurpose, value: string): string;
  open(purpose: SealPurpose, sealed: string): string | undefined;
}

const VendorName = t.keyof(Object.fromEntries(VENDORS.map((v) => [v, null])) as Record<Vendor, null>);
/** A random value from the gateway: 16 to 64 bytes, base64url. */
const Random = t.refinement(t.string, (s) => /^[\w-]{22,86}$/.test(s), 'Random');

const Bound = {
  /** tenant */
  t: t.string,
  /** owner: '' for a tenant-wide connection, else the principal it belongs to */
  o: t.string,
  /** the principal whose call asked for the link */
  p: t.string,
  v: VendorName,
  /** expiry, epoch milliseconds */
  e: t.number,
};

export const Ticket = t.strict({ typ: t.literal('ticket'), ...Bound });
export type Ticket = t.TypeOf<typeof Ticket>;

/** The state the vendor sends back: `f` names the flow (consumed once), `k` is the PKCE verifier. */
export const State = t.strict({ typ: t.literal('state'), f: Random, k: Random, ...Bound });
export type State = t.TypeOf<typeof State>;

export const BrowserBinding = t.strict({ typ: t.literal('browser'), f: Random, ...Bound });
export type BrowserBinding = t.TypeOf<typeof BrowserBinding>;

const PURPOSE: Readonly<Record<'ticket' | 'state' | 'browser', SealPurpose>> = {
  ticket: 'connect-ticket',
  state: 'oauth-state',
  browser: 'connect-browser',
};

export const sealed = <A extends Ticket | State | BrowserBinding>(sealer: Sealer, value: A): string =>
  sealer.seal(PURPOSE[value.typ], JSON.stringify(value));

/** Opens a sealed value of the codec's type; anything else (tampered, another purpose, bad shape) is undefined. */
export const opened = <A extends Ticket | State | BrowserBinding>(
  sealer: Sealer,
  codec: t.Type<A, unknown>,
  purpose: SealPurpose,
  value: string | undefined,
): A | undefined => {
  if (!value || value.length > 4096) return undefined;
  const plain = sealer.open(purpose, value);
  if (plain === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(plain);
  } catch {
    return undefined;
  }
  const decoded = codec.decode(parsed);
  return E.isRight(decoded) ? decoded.right : undefined;
};

export const openTicket = (sealer: Sealer, value: string | undefined): Ticket | undefined =>
  opened(sealer, Ticket, PURPOSE.ticket, value);
export const openState = (sealer: Sealer, value: string | undefined): State | undefined =>
  opened(sealer, State, PURPOSE.state, value);
export const openBrowserBinding = (sealer: Sealer, value: string | undefined): BrowserBinding | undefined =>
  opened(sealer, BrowserBinding, PURPOSE.browser, value);

/** The state was issued to the browser that holds this binding: same flow, tenant, owner, principal, vendor. */
export const sameFlow = (state: State, browser: BrowserBinding | undefined): boolean =>
  browser !== undefined &&
  browser.f === state.f &&
  browser.t === state.t &&
  browser.o === state.o &&
  browser.p === state.p &&
  browser.v === state.v;

/**
 * The flow cookie's name, from the state it goes with (so the callback finds it from the state alone, and
 * flows started in two tabs keep two cookies). `__Host-` when the gateway is served over https: Secure,
 * Path=/, no Domain, so a sibling host cannot set it.
 */
export const flowCookieName = (state: string, secure: boolean): string =>
  `${secure ? '__Host-' : ''}tg-connect-${createHash('sha256').update(state).digest('base64url').slice(0, 22)}`;
