import type { AuthFailure, Authenticator, Principal } from '../../../ports/authenticator.js';
import type { ApiKeyAuthenticator } from './api-key-authenticator.js';
import { JwtAuthenticator } from './jwt-authenticator.js';

/** API keys (and the demo token) first; a token shaped like a JWT then goes to the JWT verifier. */
export class CompositeAuthenticator implements Authenticator {
  constructor(
    private readonly keys: ApiKeyAuthenticator,
    private readonly jwt: JwtAuthenticator | undefined,
  ) {}

  authenticate(bearer: string): Principal | AuthFailure | Promise<Principal | AuthFailure> {
    const key = this.keys.find(bearer);
    if (key) return key;
    if (this.jwt && JwtAuthenticator.handles(bearer)) return this.jwt.authenticate(bearer);
    return { reason: this.jwt ? 'the token is neither a known API key nor a JWT' : 'the token is not a known API key' };
  }
}
