import { E } from '../domain/shared/fp.js';
import { DEFAULT_TENANT, principalId, TENANT_ID, type Principal } from '../ports/authenticator.js';
import { loadConfig, type GatewayConfig } from './config.js';

// What embedders of createGateway (gateway.ts) use besides it: the configuration error, a principal of
// their own, and reading the configuration.

export class ConfigurationError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigurationError';
  }
}

/**
 * A principal for embedders: a name, its permissions (`crm:read`, `crm:*`, `*`...) and its tenant
 * (default `default`). Its id lives in a namespace of its own (`embedded:<name>`), apart from API keys and
 * JWT subjects of the same name.
 */
export const principal = (name: string, permissions: readonly string[], tenant = DEFAULT_TENANT): Principal => {
  if (!TENANT_ID.test(tenant))
    throw new Error(`"${tenant}" is not a tenant id (1 to 64 letters, digits, ".", "_", "-")`);
  return { id: principalId('embedded', name), name, permissions: new Set(permissions), tenant };
};

/** The configuration given, or the one read from `env` (default process.env). */
export const resolveConfig = (options: {
  readonly config?: GatewayConfig;
  readonly env?: Readonly<Record<string, string | undefined>>;
}): GatewayConfig => {
  if (options.config) return options.config;
  const loaded = loadConfig(options.env ?? process.env);
  if (E.isLeft(loaded)) throw new ConfigurationError(loaded.left);
  return loaded.right;
};
