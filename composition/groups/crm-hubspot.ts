import type { Container } from 'inversify';
import { HubSpotContactBook } from '../../adapters/outbound/hubspot/hubspot-contact-book.js';
import { OAuthRefreshingAccessToken, StaticAccessToken } from '../../adapters/outbound/hubspot/hubspot-tokens.js';
import { ContactBook } from '../../ports/contact-book.js';
import { bindOnce, type ConnectionBinding, type SharedServices } from '../group-module.js';

// The crm group's HubSpot adapters on one connection: imported by crm.ts on the first HubSpot connection,
// so that the memory mode never loads them (issue 39).

/** The crm group's settings with the HubSpot backend. */
export interface HubSpotConfig {
  readonly kind: 'hubspot';
  readonly baseUrl: string;
  readonly objectsPath: string;
  readonly portalId?: string;
  /** The operator's own HubSpot account (the default tenant's connection), when the environment gives one. */
  readonly account?:
    | { readonly kind: 'private-app'; readonly accessToken: string }
    | { readonly kind: 'oauth'; readonly refreshToken: string };
  /** The gateway's HubSpot app (HUBSPOT_CLIENT_ID and HUBSPOT_CLIENT_SECRET): refreshes and connect flows. */
  readonly app?: { readonly clientId: string; readonly clientSecret: string; readonly scopes: readonly string[] };
  readonly appUrl: string;
}

export const bindHubSpotConnection = (
  container: Container,
  config: HubSpotConfig,
  { clock, upstreamTimeoutMs, resilience, logger }: SharedServices,
  { connection, tokens }: ConnectionBinding,
): void => {
  const app = config.app;
  const source =
    connection.kind === 'key' || !app
      ? new StaticAccessToken(connection.secret.apiKey ?? connection.secret.accessToken ?? '')
      : new OAuthRefreshingAccessToken({
          baseUrl: config.baseUrl,
          clientId: app.clientId,
          clientSecret: app.clientSecret,
          refreshToken: connection.secret.refreshToken ?? '',
          clock,
          timeoutMs: upstreamTimeoutMs,
          resilience,
          store: tokens,
          connection: 'connection',
        });
  bindOnce(
    container,
    ContactBook,
    () =>
      new HubSpotContactBook({
        baseUrl: config.baseUrl,
        objectsPath: config.objectsPath,
        tokens: source,
        timeoutMs: upstreamTimeoutMs,
        resilience,
        portalId: connection.details['portalId'] ?? config.portalId,
        warn: (fields, message) => logger.warn(fields, message),
      }),
  );
};
