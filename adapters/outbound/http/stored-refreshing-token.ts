import { upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either } from '../../../domain/shared/fp.js';
import type { Clock } from '../../../ports/clock.js';
import type { StoredTokens, TokenStore } from '../../../ports/token-store.js';
import type { AccessTokenSource } from './access-token.js';
import { failedBeforeAnswer } from './vendor-http.js';

/** What a vendor's token endpoint answered to a refresh. */
export interface RefreshedTokens {
  readonly accessToken: string;
  /** A rotated refresh token, when the vendor sent one. */
  readonly refreshToken?: string;
  readonly expiresInSeconds: number;
}

/** One refresh at the vendor; a refusal is an UpstreamFailure with `reauthorize`. */
export type Refresher = (refreshToken: string) => Promise<Either<GatewayError, RefreshedTokens>>;

export interface StoredRefreshingTokenOptions {
  readonly vendor: string;
  /** The connection's tokens: read before refreshing, written (durably) before a new token is used. */
  readonly store: TokenStore;
  readonly refresh: Refresher;
  readonly clock: Clock;
  /** How long to wait for another instance's refresh. */
  readonly lockWaitMs: number;
  readonly marginSeconds?: number;
}

/**
 * A connection's OAuth access token, for any vendor: used from the store until shortly before it expires,
 * then refreshed by one caller of one instance (single-flight here, the store's lock across instances),
 * the result saved before it is handed out. A token the vendor rejected is never handed out again.
 */
export class StoredRefreshingToken implements AccessTokenSource {
  readonly refreshable = true;
  readonly #o: StoredRefreshingTokenOptions;
  readonly #marginMs: number;
  #cached: StoredTokens | undefined;
  #rejected: string | undefined;
  #inFlight: Promise<Either<GatewayError, string>> | undefined;

  constructor(options: StoredRefreshingTokenOptions) {
    this.#o = options;
    this.#marginMs = (options.marginSeconds ?? 300) * 1000;
  }

  #usable(t: StoredTokens | undefined): StoredTokens | undefined {
    return t &&
      t.accessToken &&
      t.accessToken !== this.#rejected &&
      this.#o.clock.now().getTime() < t.expiresAt - this.#marginMs
      ? t
      : undefined;
  }

  accessToken(): Promise<Either<GatewayError, string>> {
    const cached = this.#usable(this.#cached);
    if (cached) return Promise.resolve(E.right(cached.accessToken));
    this.#inFlight ??= this.#obtain().finally(() => {
      this.#inFlight = undefined;
    });
    return this.#inFlight;
  }

  invalidate(rejected?: string): void {
    if (rejected !== undefined) this.#rejected = rejected;
    this.#cached = undefined;
  }

  async #obtain(): Promise<Either<GatewayError, string>> {
    const { store } = this.#o;
    const stored = this.#usable(await store.get('connection'));
    if (stored) return E.right((this.#cached = stored).accessToken);
    const outcome = await store.withLock('connection', this.#o.lockWaitMs, async () => {
      const latest = await store.get('connection');
      const fresh = this.#usable(latest);
      if (fresh) return E.right((this.#cached = fresh).accessToken);
      if (!latest?.refreshToken)
        return E.left(
          upstreamFailure(this.#o.vendor, `The ${this.#o.vendor} connection has no refresh token; connect it again.`, {
            retryable: false,
            reauthorize: true,
          }),
        );
      const startedAt = this.#o.clock.now().getTime();
      const outcome = await this.#refreshRetrying(store, latest.refreshToken);
      if ('accessToken' in outcome) return E.right((this.#cached = outcome).accessToken);
      const { refreshed, from } = outcome;
      if (E.isLeft(refreshed)) return refreshed;
      const tokens: StoredTokens = {
        accessToken: refreshed.right.accessToken,
        refreshToken: refreshed.right.refreshToken ?? from,
        expiresAt: startedAt + refreshed.right.expiresInSeconds * 1000,
      };
      await store.put('connection', tokens);
      this.#cached = tokens;
      return E.right(tokens.accessToken);
    });
    return (
      outcome ??
      E.left(
        upstreamFailure(
          this.#o.vendor,
          `Another gateway instance is refreshing the ${this.#o.vendor} token and did not finish in time. Try again shortly.`,
          { retryable: true },
        ),
      )
    );
  }

  /**
   * One refresh (under the store's lock). A connection that failed before any answer (reset, "socket hang up")
   * is retried once. The lost exchange may still have reached the vendor: where a vendor rotates refresh
   * tokens, the rotated one would be lost with it, and the old one may be refused. So the store is read again
   * first (an instance whose lock wait ran out may have saved a fresh pair meanwhile; its tokens are used as
   * they are), and the retry sends the refresh token stored now. A refusal of the retry says that the token
   * may have been rotated by the lost answer. Rotation by vendor: HubSpot does not rotate; Podio and ShareFile
   * document nothing either way, and the gateway keeps a rotated token whenever an answer carries one.
   */
  async #refreshRetrying(
    store: TokenStore,
    sent: string,
  ): Promise<StoredTokens | { refreshed: Either<GatewayError, RefreshedTokens>; from: string }> {
    const first = await this.#o.refresh(sent);
    if (E.isRight(first) || !failedBeforeAnswer(first.left)) return { refreshed: first, from: sent };
    const now = await store.get('connection');
    const fresh = this.#usable(now);
    if (fresh) return fresh;
    const from = now?.refreshToken || sent;
    const second = await this.#o.refresh(from);
    if (E.isRight(second) || second.left._tag !== 'UpstreamFailure' || !second.left.reauthorize)
      return { refreshed: second, from };
    return {
      refreshed: E.left({
        ...second.left,
        message: `${second.left.message} The refresh before it lost its connection without an answer; if ${this.#o.vendor} rotated the refresh token then, the new one was lost with it, so the connection must be authorised again.`,
      }),
      from,
    };
  }
}
