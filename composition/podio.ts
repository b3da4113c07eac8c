import type { Container, ServiceIdentifier } from 'inversify';
import { PodioOAuth, type PodioGrant } from '../adapters/outbound/podio/podio-tokens.js';
import { PODIO_BASE_URL, PodioClient } from '../adapters/outbound/podio/podio-client.js';
import { optionalString, urlVar } from './env.js';
import {
  bindOnce,
  type ConnectionBinding,
  type EnvironmentRow,
  type EnvValues,
  type SharedServices,
} from './group-module.js';
import { podioConnector, podioRefresher } from '../adapters/outbound/podio/podio-connector.js';
import { environmentConnectionStore } from '../adapters/outbound/http/scoped-token-store.js';
import { tokenStoreOf } from './token-store-of.js';
import { StoredRefreshingToken } from '../adapters/outbound/http/stored-refreshing-token.js';

// The one Podio connection of the gateway. The workspaces group module declares the PODIO_* variables
// (below); the records module reads the same decoded values with `podioConfigFrom` and binds the same
// client with `podioClient`, so both groups share one client and one token cache.

export interface PodioConfig {
  readonly baseUrl: string;
  readonly authorizeUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly grant: PodioGrant;
}

export const PodioClientToken = Symbol.for('PodioClient') as ServiceIdentifier<PodioClient>;

export const podioEnvironment: readonly EnvironmentRow[] = [
  ['PODIO_BASE_URL', PODIO_BASE_URL, 'Podio API base URL.'],
  ['PODIO_CLIENT_ID', '(none)', 'Podio API key client id (required with a podio backend).'],
  ['PODIO_CLIENT_SECRET', '(none)', 'Podio API key client secret (required with a podio backend).'],
  [
    'PODIO_REFRESH_TOKEN',
    '(none)',
    'Podio refresh token of the user the gateway acts as (from the authorisation-code flow). One of three ways to sign in.',
  ],
  [
    'PODIO_APP_ID',
    '(none)',
    'Podio app id for app authentication (with PODIO_APP_TOKEN); reaches only that app, so not the workspaces tools.',
  ],
  ['PODIO_APP_TOKEN', '(none)', 'Podio app token for app authentication.'],
  ['PODIO_USERNAME', '(none)', 'Podio user e-mail for the password grant (with PODIO_PASSWORD); for development only.'],
  ['PODIO_PASSWORD', '(none)', 'Podio user password for the password grant; for development only.'],
  ['PODIO_AUTHORIZE_URL', 'https://podio.com', "Where a person approves the gateway's Podio app in the connect flow."],
];

export const podioEnv = {
  PODIO_BASE_URL: urlVar(PODIO_BASE_URL),
  PODIO_CLIENT_ID: optionalString,
  PODIO_CLIENT_SECRET: optionalString,
  PODIO_REFRESH_TOKEN: optionalString,
  PODIO_APP_ID: optionalString,
  PODIO_APP_TOKEN: optionalString,
  PODIO_USERNAME: optionalString,
  PODIO_PASSWORD: optionalString,
  PODIO_AUTHORIZE_URL: urlVar('https://podio.com'),
};

/**
 * The Podio connection from the decoded PODIO_* variables. `because` names what needs it
 * (`WORKSPACES_BACKEND=podio`); problems are added once even when several groups ask.
 */
export const podioConfigFrom = (vars: EnvValues<typeof podioEnv>, problems: string[], because: string): PodioConfig => {
  const str = (name: Exclude<keyof typeof podioEnv, 'PODIO_BASE_URL'>) => vars[name] || undefined;
  const problem = (text: string) => {
    if (!problems.includes(text)) problems.push(text);
  };
  const clientId = str('PODIO_CLIENT_ID');
  const clientSecret = str('PODIO_CLIENT_SECRET');
  if (!clientId) problem(`PODIO_CLIENT_ID is required when ${because}.`);
  if (!clientSecret) problem(`PODIO_CLIENT_SECRET is required when ${because}.`);
  const refreshToken = str('PODIO_REFRESH_TOKEN');
  const appId = str('PODIO_APP_ID');
  const appToken = str('PODIO_APP_TOKEN');
  const username = str('PODIO_USERNAME');
  const password = str('PODIO_PASSWORD');
  const chosen = [
    refreshToken && 'PODIO_REFRESH_TOKEN',
    (appId || appToken) && 'PODIO_APP_ID/PODIO_APP_TOKEN',
    (username || password) && 'PODIO_USERNAME/PODIO_PASSWORD',
  ].filter(Boolean);
  if (chosen.length !== 1) {
    problem(
      chosen.length === 0
        ? `Podio needs one way to sign in when ${because}: PODIO_REFRESH_TOKEN, or PODIO_APP_ID with PODIO_APP_TOKEN, or PODIO_USERNAME with PODIO_PASSWORD.`
        : `Set only one Podio sign-in: ${chosen.join(', ')} are all set.`,
    );
  }
  let grant: PodioGrant;
  if (refreshToken) grant = { kind: 'refresh_token', refreshToken };
  else if (appId || appToken) {
    if (!appId || !appToken) problem('PODIO_APP_ID and PODIO_APP_TOKEN go together.');
    grant = { kind: 'app', appId: appId ?? '', appToken: appToken ?? '' };
  } else {
    if ((username || password) && (!username || !password)) problem('PODIO_USERNAME and PODIO_PASSWORD go together.');
    grant = { kind: 'password', username: username ?? '', password: password ?? '' };
  }
  return {
    baseUrl: vars.PODIO_BASE_URL,
    authorizeUrl: vars.PODIO_AUTHORIZE_URL,
    clientId: clientId ?? '',
    clientSecret: clientSecret ?? '',
    grant,
  };
};

/** The shared PodioClient: bound once under PodioClientToken (an override bound earlier wins). */
export const podioClient = (container: Container, config: PodioConfig, shared: SharedServices): PodioClient => {
  bindOnce(container, PodioClientToken, () => {
    const grant = config.grant;
    // A refresh token is one connection shared by every instance through the TokenStore (Redis when
    // configured); app and password grants sign in again with their own credentials wherever needed.
    const auth =
      grant.kind === 'refresh_token'
        ? new StoredRefreshingToken({
            vendor: 'Podio',
            store: environmentConnectionStore(tokenStoreOf(container), 'podio', config.clientId, grant.refreshToken),
            refresh: podioRefresher(connectorOptions(config, shared)),
            clock: shared.clock,
            lockWaitMs: shared.upstreamTimeoutMs,
          })
        : new PodioOAuth({
            baseUrl: config.baseUrl,
            clientId: config.clientId,
            clientSecret: config.clientSecret,
            grant,
            clock: shared.clock,
            timeoutMs: shared.upstreamTimeoutMs,
          });
    return new PodioClient({ baseUrl: config.baseUrl, auth, timeoutMs: shared.upstreamTimeoutMs, clock: shared.clock });
  });
  return container.get(PodioClientToken);
};

const connectorOptions = (config: PodioConfig, shared: SharedServices) => ({
  apiBaseUrl: config.baseUrl,
  authorizeBaseUrl: config.authorizeUrl,
  clientId: config.clientId,
  clientSecret: config.clientSecret,
  timeoutMs: shared.upstreamTimeoutMs,
  clock: shared.clock,
});

/** How tenants connect Podio (the OAuth flow with the gateway's Podio API key). */
export const podioTenantConnector = (config: PodioConfig, shared: SharedServices) =>
  podioConnector(connectorOptions(config, shared));

/**
 * A tenant's Podio connection as the client both Podio groups use: bound under PodioClientToken before
 * the group's own binding runs, which then builds its adapters on it.
 */
export const bindPodioConnection = (
  container: Container,
  config: PodioConfig,
  shared: SharedServices,
  binding: ConnectionBinding,
): void => {
  const auth = new StoredRefreshingToken({
    vendor: 'Podio',
    store: binding.tokens,
    refresh: podioRefresher(connectorOptions(config, shared)),
    clock: shared.clock,
    lockWaitMs: shared.upstreamTimeoutMs,
  });
  container
    .bind(PodioClientToken)
    .toConstantValue(
      new PodioClient({ baseUrl: config.baseUrl, auth, timeoutMs: shared.upstreamTimeoutMs, clock: shared.clock }),
    );
};
