import type { GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';

/** Where a vendor adapter gets the bearer token of each request (every vendor's token providers implement it). */
export interface AccessTokenSource {
  accessToken(): Promise<Either<GatewayError, string>>;
  /**
   * Forgets a token the vendor rejected (given: never hand it out again, from any cache or shared
   * store), so that the next call obtains a fresh one.
   */
  invalidate?(rejected?: string): void;
  /** True when a rejected token can be replaced by a fresh one (OAuth refresh): a 401 is then retried once. */
  readonly refreshable?: boolean;
}

/** A fixed token (a private-app or API token, tests, or an embedder that manages tokens itself). */
export class StaticAccessToken implements AccessTokenSource {
  readonly #token: string;
  constructor(token: string) {
    this.#token = token;
  }
  async accessToken(): Promise<Either<GatewayError, string>> {
    return E.right(this.#token);
  }
  invalidate(): void {}
}
