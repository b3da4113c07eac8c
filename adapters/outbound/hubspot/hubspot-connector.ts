import { invalidInput, upstreamFailure } from '../../../domain/shared/errors.js';
import { E } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type { ConnectedAccount, VendorConnector } from '../../../ports/vendor-connector.js';
import { createVendorHttp, transportFailure } from '../http/vendor-http.js';
import { decodeTokenAnswer } from './hubspot-codecs.js';
import type { Resilience } from '../http/resilience.js';

const VENDOR = 'HubSpot';
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded;charset=utf-8' };

export interface HubSpotConnectorOptions {
  readonly apiBaseUrl: string;
  /** Where a person authorizes the app: https://app.hubspot.com (app-eu1 for EU accounts works too). */
  readonly appBaseUrl: string;
  /** The gateway's HubSpot app; without one only private-app tokens can be connected. */
  readonly app?: { readonly clientId: string; readonly clientSecret: string; readonly scopes: readonly string[] };
  /** The CRM path the key check reads (`/crm/v3/objects` or `/crm/objects/2026-03`). */
  readonly objectsPath: string;
  readonly timeoutMs: number;
  /** Retries and breaker settings (the gateway's); without them, the fallback's (resilience.ts). */
  readonly resilience?: Resilience;
  readonly clock: Clock;
}

const last4 = (token: string) => token.slice(-4);

/**
 * Connects HubSpot: a private-app token (checked with one contacts read), or OAuth: the authorize page
 * at app.hubspot.com, then the code exchange and revocation on `/oauth/2026-03/token[/revoke]`.
 */
export const hubspotConnector = (o: HubSpotConnectorOptions): VendorConnector => {
  const http = createVendorHttp({
    vendor: VENDOR,
    baseURL: o.apiBaseUrl,
    timeoutMs: o.timeoutMs,
    resilience: o.resilience,
  });
  const app = o.app;
  return {
    vendor: 'hubspot',
    label: VENDOR,
    checkKey: async (token) => {
      try {
        const res = await http.get(`${o.objectsPath}/contacts`, {
          params: { limit: 1 },
          headers: { Authorization: `Bearer ${token}` },
        });
        if (res.status === 401 || res.status === 403)
          return E.left(
            invalidInput(
              `HubSpot refused this token (HTTP ${res.status}); nothing was saved. Check it is a private-app token with the CRM scopes.`,
              'key',
              'a HubSpot private-app token HubSpot accepts',
            ),
          );
        if (res.status !== 200)
          return E.left(
            upstreamFailure(VENDOR, `HubSpot could not check the token (HTTP ${res.status}); nothing was saved.`, {
              retryable: res.status === 429 || res.status >= 500,
              status: res.status,
            }),
          );
        return E.right({
          secret: { apiKey: token },
          label: `HubSpot private app (token ending ${last4(token)})`,
          details: {},
        });
      } catch (error) {
        return E.left(transportFailure(VENDOR, error));
      }
    },
    ...(app
      ? {
          oauth: {
            // Scopes "separated by URL-encoded spaces (%20)" (developers.hubspot.com, OAuth quickstart guide;
            // the official Node client builds the URL with querystring.stringify, which writes %20 too), so
            // not URLSearchParams, which writes "+". PKCE is kept: HubSpot's token endpoint takes
            // `code_verifier` (HubSpot-public-api-spec-collection, Auth/Oauth 2026-03 oauth.json) and HubSpot's
            // MCP-server guide asks OAuth clients for PKCE; see docs/decisions.md.
            authorizeUrl: ({ state, redirectUri, codeChallenge }) => {
              const query = [
                ['client_id', app.clientId],
                ['redirect_uri', redirectUri],
                ['scope', app.scopes.join(' ')],
                ['state', state],
                ['code_challenge', codeChallenge],
                ['code_challenge_method', 'S256'],
              ]
                .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
                .join('&');
              return `${new URL('/oauth/authorize', o.appBaseUrl).toString()}?${query}`;
            },
            exchange: async ({ code, redirectUri, codeVerifier }) => {
              const form = new URLSearchParams({
                grant_type: 'authorization_code',
                client_id: app.clientId,
                client_secret: app.clientSecret,
                redirect_uri: redirectUri,
                code,
                code_verifier: codeVerifier,
              });
              const startedAt = o.clock.now().getTime();
              let res;
              try {
                res = await http.post('/oauth/2026-03/token', form.toString(), { headers: FORM });
              } catch (error) {
                return E.left(transportFailure(VENDOR, error));
              }
              if (res.status !== 200)
                return E.left(
                  upstreamFailure(
                    VENDOR,
                    `HubSpot refused the authorization code (HTTP ${res.status}); start the connection again.`,
                    { retryable: false, status: res.status },
                  ),
                );
              const decoded = decodeTokenAnswer(res.data, res.status);
              if (E.isLeft(decoded)) return decoded;
              const body = decoded.right;
              const account: ConnectedAccount = {
                secret: {
                  accessToken: body.access_token,
                  ...(body.refresh_token ? { refreshToken: body.refresh_token } : {}),
                  expiresAt: startedAt + body.expires_in * 1000,
                },
                label: body.hub_id !== undefined ? `HubSpot account ${body.hub_id}` : 'HubSpot account',
                details: body.hub_id !== undefined ? { portalId: String(body.hub_id) } : {},
              };
              return E.right(account);
            },
          },
          revoke: async (secret) => {
            const token = secret.refreshToken;
            if (!token) return;
            const form = new URLSearchParams({
              client_id: app.clientId,
              client_secret: app.clientSecret,
              token,
              token_type_hint: 'refresh_token',
            });
            await http.post('/oauth/2026-03/token/revoke', form.toString(), { headers: FORM }).catch(() => undefined);
          },
        }
      : {}),
  };
};
