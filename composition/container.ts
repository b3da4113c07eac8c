import { Container } from 'inversify';
import type { Logger } from 'pino';
import { allTools } from '../application/tools.js';
import { ApiKeyAuthenticator, type ApiKey } from '../adapters/outbound/auth/api-key-authenticator.js';
import { BatchDataSkipTracer } from '../adapters/outbound/batchdata/batchdata-skip-tracer.js';
import { HubSpotContactBook } from '../adapters/outbound/hubspot/hubspot-contact-book.js';
import { OAuthRefreshingAccessToken, StaticAccessToken } from '../adapters/outbound/hubspot/hubspot-tokens.js';
import { InMemoryContactBook } from '../adapters/outbound/memory/in-memory-contact-book.js';
import { InMemorySkipTracer } from '../adapters/outbound/memory/in-memory-skip-tracer.js';
import { SystemClock } from '../adapters/outbound/system-clock.js';
import { Authenticator, CallGuard } from '../ports/authenticator.js';
import { Clock } from '../ports/clock.js';
import { ContactBook } from '../ports/contact-book.js';
import { SkipTracer } from '../ports/skip-tracer.js';
import type { GatewayConfig } from './config.js';

/** Replacements for tests and embedders: any port bound here wins over what the configuration says. */
export interface ContainerOverrides {
  readonly clock?: Clock;
  readonly contactBook?: ContactBook;
  readonly skipTracer?: SkipTracer;
  readonly authenticator?: Authenticator;
  readonly callGuard?: CallGuard;
}

const contactBookFor = (config: GatewayConfig, clock: Clock, logger: Logger): ContactBook => {
  const crm = config.crm;
  if (crm.kind === 'memory') {
    return config.demoData ? InMemoryContactBook.withDemoData({ clock }) : new InMemoryContactBook({ clock });
  }
  const tokens =
    crm.auth.kind === 'private-app'
      ? new StaticAccessToken(crm.auth.accessToken)
      : new OAuthRefreshingAccessToken({
          baseUrl: crm.baseUrl,
          clientId: crm.auth.clientId,
          clientSecret: crm.auth.clientSecret,
          refreshToken: crm.auth.refreshToken,
          clock,
          timeoutMs: config.upstreamTimeoutMs,
          onRefreshTokenRotated: () => logger.warn('HubSpot rotated the refresh token; the new one is kept in memory until a token store is configured.'),
        });
  return new HubSpotContactBook({
    baseUrl: crm.baseUrl,
    objectsPath: crm.objectsPath,
    tokens,
    timeoutMs: config.upstreamTimeoutMs,
    portalId: crm.portalId,
  });
};

const skipTracerFor = (config: GatewayConfig, clock: Clock): SkipTracer =>
  config.skiptrace.kind === 'memory'
    ? new InMemorySkipTracer(clock)
    : new BatchDataSkipTracer({ baseUrl: config.skiptrace.baseUrl, apiToken: config.skiptrace.apiToken, timeoutMs: config.upstreamTimeoutMs });

/** The API keys in force: the configured ones plus the demo token (every permission). */
export const apiKeysFor = (config: GatewayConfig, demoToken: string | undefined): ApiKey[] => [
  ...config.apiKeys,
  ...(demoToken ? [{ name: 'demo', token: demoToken, permissions: ['*'] }] : []),
];

/**
 * Wires one set of adapters into an Inversify container: each port bound to the adapter the
 * configuration names, and every tool's use case bound as a singleton.
 */
export const buildContainer = (config: GatewayConfig, demoToken: string | undefined, logger: Logger, overrides: ContainerOverrides = {}): Container => {
  const container = new Container({ defaultScope: 'Singleton' });
  const clock = overrides.clock ?? new SystemClock();
  container.bind(Clock).toConstantValue(clock);
  container.bind(ContactBook).toConstantValue(overrides.contactBook ?? contactBookFor(config, clock, logger));
  container.bind(SkipTracer).toConstantValue(overrides.skipTracer ?? skipTracerFor(config, clock));
  container.bind(Authenticator).toConstantValue(overrides.authenticator ?? new ApiKeyAuthenticator(apiKeysFor(config, demoToken)));
  // No guard is bound until rate limits or idempotency are configured: the executor then skips the step.
  if (overrides.callGuard) container.bind(CallGuard).toConstantValue(overrides.callGuard);
  for (const tool of allTools) container.bind(tool.useCase as never).toSelf();
  return container;
};
