// The library entry for Node services that embed the gateway without HTTP:
//
//   import { createGateway, principal } from 'tool-gateway';
//   const gateway = createGateway({ env: { CRM_BACKEND: 'memory' } });
//   const answer = await gateway.callTool('crm_searchContacts', { query: 'maria' }, { principal: principal('svc', ['crm:read']) });
//   // answer = { status: 200, body: { success: true, data: '## Contacts: ...' } }, exactly what HTTP would answer
export { createGateway, principal, ConfigurationError } from './gateway.js';
export type { Gateway, GatewayOptions, CallOptions } from './gateway.js';
export { loadConfig, ENVIRONMENT } from './config.js';
export type { GatewayConfig } from './config.js';
export type { Envelope, Presented, ResponseFormat } from '../application/runtime/envelope.js';
export type { ToolListing } from '../application/runtime/registry.js';
export type { Principal } from '../ports/authenticator.js';
