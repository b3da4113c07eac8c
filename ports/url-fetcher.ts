import type { ServiceIdentifier } from 'inversify';
import type { GatewayError } from '../domain/shared/errors.js';
import type { TaskEither } from '../domain/shared/fp.js';
import type { NewFile } from './record-store.js';

/**
 * An answer fetched from a URL a caller gave, read within limits: the final status after redirects, the
 * URL that answered, its headers (lower-case names) and at most the allowed number of body bytes.
 */
export interface FetchedResource {
  readonly status: number;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

export interface FetchLimits {
  /** Largest body in bytes (default: the fetcher's configured limit; never above it). */
  readonly maxBytes?: number;
  /** Sent as the Accept header. */
  readonly accept?: string;
  /** Other request headers (conditional requests: If-None-Match, If-Modified-Since). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The one way the gateway fetches a URL a caller named: http(s) only, global unicast addresses only
 * (every IPv4-embedding IPv6 form unwrapped), each connection pinned to the checked address, every
 * redirect hop checked again, size and time limits. Failures are InvalidInput on `url`.
 */
export interface GuardedFetcher {
  get(url: string, limits?: FetchLimits): TaskEither<GatewayError, FetchedResource>;
}

/** Downloads a file a caller named by URL (attachments), through the guarded fetcher; a non-2xx answer is an error. */
export interface UrlFetcher {
  fetch(url: string): TaskEither<GatewayError, NewFile>;
  /** Releases pooled connections at shutdown, where the adapter keeps any. */
  close?(): Promise<void>;
}

export const UrlFetcher = Symbol.for('UrlFetcher') as ServiceIdentifier<UrlFetcher>;
export const GuardedFetcher = Symbol.for('GuardedFetcher') as ServiceIdentifier<GuardedFetcher>;
