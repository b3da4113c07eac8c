import { Container, type ServiceIdentifier } from 'inversify';
import { allTools } from '../application/tools.js';
import { ApiKeyAuthenticator, type ApiKey } from '../adapters/outbound/auth/api-key-authenticator.js';
import { Authenticator, CallGuard } from '../ports/authenticator.js';
import { Clock } from '../ports/clock.js';
import { ContactBook } from '../ports/contact-book.js';
import { SkipTracer } from '../ports/skip-tracer.js';
import type { GatewayConfig } from './config.js';
import type { SharedServices } from './group-module.js';
import { groupModules } from './groups/index.js';

/** Replacements for tests and embedders: any port bound here wins over what the configuration says. */
export interface ContainerOverrides {
  readonly clock?: Clock;
  readonly contactBook?: ContactBook;
  readonly skipTracer?: SkipTracer;
  readonly authenticator?: Authenticator;
  readonly callGuard?: CallGuard;
  /** Any other port: [its token, the adapter to use]. */
  readonly ports?: readonly (readonly [ServiceIdentifier<any>, unknown])[];
}

/** The API keys in force: the configured ones plus the demo token (every permission). */
export const apiKeysFor = (config: GatewayConfig, demoToken: string | undefined): ApiKey[] => [
  ...config.apiKeys,
  ...(demoToken ? [{ name: 'demo', token: demoToken, permissions: ['*'] }] : []),
];

/**
 * Wires one set of adapters into an Inversify container: overrides first, then each group binds the
 * adapters its configuration names to the ports still unbound, and every tool's use case is bound.
 */
export const buildContainer = (config: GatewayConfig, demoToken: string | undefined, shared: SharedServices, overrides: ContainerOverrides = {}): Container => {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(Clock).toConstantValue(shared.clock);
  if (overrides.contactBook) container.bind(ContactBook).toConstantValue(overrides.contactBook);
  if (overrides.skipTracer) container.bind(SkipTracer).toConstantValue(overrides.skipTracer);
  for (const [id, value] of overrides.ports ?? []) container.bind(id).toConstantValue(value);
  container.bind(Authenticator).toConstantValue(overrides.authenticator ?? new ApiKeyAuthenticator(apiKeysFor(config, demoToken)));
  // No guard is bound until rate limits or idempotency are configured: the executor then skips the step.
  if (overrides.callGuard) container.bind(CallGuard).toConstantValue(overrides.callGuard);
  for (const group of groupModules) group.bind(container, config.groups[group.name], shared);
  for (const tool of allTools) container.bind(tool.useCase as never).toSelf();
  return container;
};
