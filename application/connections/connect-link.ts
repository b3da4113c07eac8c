import { createHash, randomBytes } from 'node:crypto';
import type { OAuthConnector } from '../../ports/vendor-connector.js';
import { forbidden, invalidInput, type GatewayError } from '../../domain/shared/errors.js';
import { E, type Either } from '../../domain/shared/fp.js';
import {
  flowCookieName,
  openTicket,
  sealed,
  type BrowserBinding,
  type Sealer,
  type State,
  type Ticket,
} from './connect-flow.js';

/** How long the OAuth state and the flow cookie live: the person has ten minutes at the vendor. */
const STATE_TTL_MS = 10 * 60 * 1000;

/** The cookie the browser that opened a connect link keeps until the callback (see connect-flow.ts). */
export interface FlowCookie {
  readonly name: string;
  readonly value: string;
  readonly maxAgeSeconds: number;
  /** The gateway is served over https: the cookie is Secure (and named `__Host-`). */
  readonly secure: boolean;
}

// A connect link (`/connect/{vendor}?ticket=`) names whose call asked for it, and that person alone may
// use it (issue 43): whoever opens it signs in to the gateway first, and only the principal the ticket was
// issued to, in its tenant, goes on to the vendor. A link seen in a transcript, a log or a screenshot is
// useless to anyone else; it also cannot make someone connect their account into another person's
// workspace (they would have to sign in as that person).

/** Who signed in on the connect page. */
export interface LinkHolder {
  readonly tenant: string;
  readonly principalId: string;
}

/** The ticket of a link for `vendorName`, unexpired; else why the link cannot be used. */
export const readTicket = (
  sealer: Sealer,
  nowMs: number,
  vendorName: string,
  sealedTicket: string | undefined,
): Either<GatewayError, Ticket> => {
  const ticket = openTicket(sealer, sealedTicket);
  if (!ticket || ticket.v !== vendorName)
    return E.left(invalidInput('This connect link is not valid.', 'ticket', 'the ticket the gateway issued'));
  if (ticket.e < nowMs)
    return E.left(
      invalidInput('This connect link expired (1 hour). Ask the agent for a new one.', 'ticket', 'a fresh ticket'),
    );
  return E.right(ticket);
};

/**
 * The caller a link was made for, and who signed in on its page, are one person: the same principal, or a
 * caller with an external issuer's JWT (`jwt:<issuer>:<sub>`) who signed in through the OpenID provider of
 * that same issuer (`oidc:<issuer>:<sub>`): one issuer's subject is one person (OpenID Connect Core 2). A
 * client-credentials JWT (`jwt:<issuer>:client:<id>`) is no person and matches no sign-in.
 */
export const samePerson = (linkedTo: string, signedIn: string): boolean =>
  linkedTo === signedIn ||
  (linkedTo.startsWith('jwt:') && signedIn.startsWith('oidc:') && linkedTo.slice(4) === signedIn.slice(5));

/** The ticket, if the person who signed in is the one whose call asked for it; else a refusal. */
export const heldBy = (ticket: Ticket, holder: LinkHolder): Either<GatewayError, Ticket> =>
  ticket.t === holder.tenant && samePerson(ticket.p, holder.principalId)
    ? E.right(ticket)
    : E.left(
        forbidden(
          'This connect link belongs to another person: only the person whose call asked for it can use it. Sign in with your own key, and ask your agent for a link of your own.',
        ),
      );

/**
 * The vendor's authorization page for a ticket's tenant and owner (a fresh flow: its sealed state with the
 * PKCE verifier), and the cookie that binds the flow to the browser that started it.
 */
export const authorizeAt = (
  oauth: OAuthConnector,
  ticket: Ticket,
  o: { readonly sealer: Sealer; readonly nowMs: number; readonly redirectUri: string; readonly secure: boolean },
): { location: string; cookie: FlowCookie } => {
  const bound = { t: ticket.t, o: ticket.o, p: ticket.p, v: ticket.v };
  const flow = randomBytes(16).toString('base64url');
  const verifier = randomBytes(32).toString('base64url');
  const expires = o.nowMs + STATE_TTL_MS;
  const issued: State = { typ: 'state', f: flow, k: verifier, ...bound, e: expires };
  const state = sealed(o.sealer, issued);
  const browser: BrowserBinding = { typ: 'browser', f: flow, ...bound, e: expires };
  return {
    location: oauth.authorizeUrl({
      state,
      redirectUri: o.redirectUri,
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
    }),
    cookie: {
      name: flowCookieName(state, o.secure),
      value: sealed(o.sealer, browser),
      maxAgeSeconds: STATE_TTL_MS / 1000,
      secure: o.secure,
    },
  };
};
