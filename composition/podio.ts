import type { PodioGrant } from '../adapters/outbound/podio/podio-tokens.js';
import { PODIO_BASE_URL } from '../adapters/outbound/podio/podio-client.js';
import { optionalString, urlVar } from './env.js';
import type { EnvironmentConnection, EnvValues, SharedServices } from './group-module.js';
import { podioConnector } from '../adapters/outbound/podio/podio-connector.js';

// Podio serves two groups. The workspaces group module declares the PODIO_* variables (below); the
// records module reads the same decoded values with `podioConfigFrom`. Both bind their adapters on one
// connection's client with `podioClientFor` (groups/podio-connection.ts, imported on the first Podio
// connection), so both share one client and one token cache.

export interface PodioConfig {
  readonly baseUrl: string;
  readonly authorizeUrl: string;
  /** The gateway's Podio API key: every grant and every connect flow uses it. */
  readonly clientId: string;
  readonly clientSecret: string;
  /** The operator's own sign-in (the default tenant's connection), when the environment gives one. */
  readonly grant?: PodioGrant;
}

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

/** The Podio API key's settings for the connector and the refresher. */
export const podioConnectorOptions = (config: PodioConfig, shared: SharedServices) => ({
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
  podioConnector(podioConnectorOptions(config, shared));
