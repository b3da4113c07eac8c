import type { Container, ServiceIdentifier } from 'inversify';
import { PodioOAuth, type PodioGrant } from '../adapters/outbound/podio/podio-tokens.js';
import { PODIO_BASE_URL, PodioClient } from '../adapters/outbound/podio/podio-client.js';
import { optionalString, urlVar } from './env.js';
import {
  bindOnce,
  type ConnectionBinding,
  type EnvironmentConnection,
  type EnvValues,
  type SharedServices,
} from './group-module.js';
import { podioConnector, podioRefresher } from '../adapters/outbound/podio/podio-connector.js';
import { StoredRefreshingToken } from '../adapters/outbound/http/stored-refreshing-token.js';

// Podio serves two groups. The workspaces group module declares the PODIO_* variables (below); the
// records module reads the same decoded values with `podioConfigFrom`. Both bind their adapters on one
// connection's client with `podioClientFor`, so both share one client and one token cache.

export interface PodioConfig {
  readonly baseUrl: string;
  readonly authorizeUrl: string;
  /** The gateway's Podio API key: every grant and every connect flow uses it. */
  readonly clientId: string;
  readonly clientSecret: string;
  /** The operator's own sign-in (the default tenant's connection), when the environment gives one. */
  readonly grant?: PodioGrant;
}

export const PodioClientToken = Symbol.for('PodioClient') as ServiceIdentifier<PodioClient>;

export const podioEnv = {
  PODIO_BASE_URL: urlVar(PODIO_BASE_URL).doc('Podio API base URL.'),
  PODIO_CLIENT_ID: optionalString.doc(
    "The gateway's Podio API key client id (required with a podio backend): tenants connect through it, and every grant uses it.",
  ),
  PODIO_CLIENT_SECRET: optionalString.doc('Podio API key client secret (required with a podio backend).'),
  PODIO_REFRESH_TOKEN: optionalString.doc(
    "Podio refresh token of the user the default tenant acts as (from the authorisation-code flow). One of three optional ways to give the operator's own sign-in; without any, every tenant connects its own.",
  ),
  PODIO_APP_ID: optionalString.doc(
    'Podio app id for app authentication (with PODIO_APP_TOKEN); reaches only that app, so not the workspaces tools.',
  ),
  PODIO_APP_TOKEN: optionalString.doc('Podio app token for app authentication.'),
  PODIO_USERNAME: optionalString.doc(
    'Podio user e-mail for the password grant (with PODIO_PASSWORD); for development only.',
  ),
  PODIO_PASSWORD: optionalString.doc('Podio user password for the password grant; for development only.'),
  PODIO_AUTHORIZE_URL: urlVar('https://podio.com').doc(
    "Where a person approves the gateway's Podio app in the connect flow.",
  ),
};

/**
 * The Podio settings from the decoded PODIO_* variables. `because` names what needs them
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
  if (chosen.length > 1) problem(`Set only one Podio sign-in: ${chosen.join(', ')} are all set.`);
  let grant: PodioGrant | undefined;
  if (refreshToken) grant = { kind: 'refresh_token', refreshToken };
  else if (appId || appToken) {
    if (!appId || !appToken) problem('PODIO_APP_ID and PODIO_APP_TOKEN go together.');
    grant = { kind: 'app', appId: appId ?? '', appToken: appToken ?? '' };
  } else if (username || password) {
    if (!username || !password) problem('PODIO_USERNAME and PODIO_PASSWORD go together.');
    grant = { kind: 'password', username: username ?? '', password: password ?? '' };
  }
  return {
    baseUrl: vars.PODIO_BASE_URL,
    authorizeUrl: vars.PODIO_AUTHORIZE_URL,
    clientId: clientId ?? '',
    clientSecret: clientSecret ?? '',
    ...(grant ? { grant } : {}),
  };
};

/** The default tenant's Podio connection from the environment's sign-in (app and password grants sign in again as needed). */
export const podioEnvironmentConnection = (config: PodioConfig): EnvironmentConnection | undefined => {
  const grant = config.grant;
  if (!grant) return undefined;
  // the client id names the shared token entry, as before connections came from one place
  const details = { clientId: config.clientId };
  if (grant.kind === 'refresh_token') return { kind: 'oauth', details, secret: { refreshToken: grant.refreshToken } };
  const signIn: Record<string, string> =
    grant.kind === 'app'
      ? { appId: grant.appId, appToken: grant.appToken }
      : { username: grant.username, password: grant.password };
  return { kind: 'key', details, secret: { signIn } };
};

const grantOf = (signIn: Readonly<Record<string, string>> | undefined): PodioGrant | undefined => {
  if (signIn?.['appId'] !== undefined)
    return { kind: 'app', appId: signIn['appId'], appToken: signIn['appToken'] ?? '' };
  if (signIn?.['username'] !== undefined)
    return { kind: 'password', username: signIn['username'], password: signIn['password'] ?? '' };
  return undefined;
};

const connectorOptions = (config: PodioConfig, shared: SharedServices) => ({
  apiBaseUrl: config.baseUrl,
  authorizeBaseUrl: config.authorizeUrl,
  clientId: config.clientId,
  clientSecret: config.clientSecret,
  timeoutMs: shared.upstreamTimeoutMs,
  resilience: shared.resilience,
  clock: shared.clock,
});

/** How tenants connect Podio (the OAuth flow with the gateway's Podio API key). */
export const podioTenantConnector = (config: PodioConfig, shared: SharedServices) =>
  podioConnector(connectorOptions(config, shared));

/**
 * The Podio client of one connection, bound once under PodioClientToken in the connection's container (an
 * override bound earlier wins), so that both Podio groups use the same client. A refresh token (stored,
 * or the environment's) is refreshed through the binding's token store under its lock; app and password
 * sign-ins sign in again with their own credentials wherever needed.
 */
export const podioClientFor = (
  container: Container,
  config: PodioConfig,
  shared: SharedServices,
  { connection, tokens }: ConnectionBinding,
): PodioClient => {
  bindOnce(container, PodioClientToken, () => {
    const grant = grantOf(connection.secret.signIn);
    const auth = grant
      ? new PodioOAuth({
          baseUrl: config.baseUrl,
          clientId: config.clientId,
          clientSecret: config.clientSecret,
          grant,
          clock: shared.clock,
          timeoutMs: shared.upstreamTimeoutMs,
          resilience: shared.resilience,
        })
      : new StoredRefreshingToken({
          vendor: 'Podio',
          store: tokens,
          refresh: podioRefresher(connectorOptions(config, shared)),
          clock: shared.clock,
          lockWaitMs: shared.upstreamTimeoutMs,
        });
    return new PodioClient({
      baseUrl: config.baseUrl,
      auth,
      timeoutMs: shared.upstreamTimeoutMs,
      resilience: shared.resilience,
      clock: shared.clock,
    });
  });
  return container.get(PodioClientToken);
};
