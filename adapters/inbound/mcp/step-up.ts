import type { Principal } from '../../../ports/authenticator.js';

/**
 * Can this principal's credential be re-authorized for more scope? An OAuth access token can (the gateway's
 * own server's, whose principal carries the client, or another issuer's JWT): it gets a 403
 * insufficient_scope challenge, and its tools/list is not kept by the client. An API key or the demo token
 * cannot: it gets the tool's own error naming the permission.
 */
export const mayStepUp = (principal: Principal): boolean => principal.id.startsWith('jwt:') || 'clientId' in principal;
