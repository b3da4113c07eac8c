import type { Agent } from 'undici';
import { invalidInput, upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import type { NewFile } from '../../../ports/record-store.js';
import type { FetchedResource, FetchLimits, GuardedFetcher, UrlFetcher } from '../../../ports/url-fetcher.js';
import { classifyAddress, isIpLiteral, type AddressVerdict } from './address-policy.js';
import {
  AddressRefused,
  HostUnresolved,
  loadUndici,
  pinnedAgent,
  resolveChecked,
  systemResolve,
  type Resolve,
} from './pinned-lookup.js';

export { isNonPublicAddress, isPublicAddress } from './address-policy.js';

export interface UrlFetchGuardOptions {
  /** Largest download in bytes. */
  readonly maxBytes: number;
  /** Time limit of the whole fetch: every hop, headers and body. */
  readonly timeoutMs: number;
  /** Allow loopback, private and link-local addresses (local development and tests only). */
  readonly allowPrivate: boolean;
  /** Redirect hops followed, each checked again (default 3). */
  readonly maxRedirects?: number;
  /** Name resolution (replaceable in tests); used both by the early check and by the connection itself. */
  readonly resolve?: Resolve;
  /** Which addresses may be connected to (default: global unicast, see address-policy.ts; replaceable in tests). */
  readonly addressPolicy?: (ip: string) => AddressVerdict;
  /** The User-Agent sent (default `tool-gateway`). */
  readonly userAgent?: string;
  /** What a refused private address's message suggests instead (default: uploading the content). */
  readonly privateHint?: string;
}

const EXPECTED = 'a public http(s) URL';
const allowAll = (): AddressVerdict => ({ allowed: true });

/** Answers that are read to the end: every other status is handed back as it is. */
const isRedirect = (status: number): boolean =>
  status === 301 || status === 302 || status === 303 || status === 307 || status === 308;

/** A URL's last path segment as a file name; a malformed %-escape keeps the segment as written. */
export const fileNameOf = (u: URL): string => {
  const last = u.pathname.split('/').filter(Boolean).pop() ?? '';
  let name: string;
  try {
    name = decodeURIComponent(last);
  } catch {
    name = last;
  }
  name = name
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
    .replace(/[\u0000-\u001f\u007f/\\]/g, '_')
    .slice(0, 255)
    .trim();
  return name || 'download';
};

/**
 * The gateway's one guard for fetching caller-given URLs (see {@link GuardedFetcher}). Every connection
 * goes through an undici Agent whose lookup checks each resolved address; IP-literal hosts are checked
 * before any socket is opened; redirects are followed by hand, each hop checked the same way. undici and the
 * Agent are made on the first fetch.
 */
export class UrlFetchGuard implements UrlFetcher, GuardedFetcher {
  private readonly policy: (ip: string) => AddressVerdict;
  private readonly resolve: Resolve;
  #agent: Promise<Agent> | undefined;

  constructor(private readonly o: UrlFetchGuardOptions) {
    this.policy = o.allowPrivate ? allowAll : (o.addressPolicy ?? classifyAddress);
    this.resolve = o.resolve ?? systemResolve;
  }

  private agent(): Promise<Agent> {
    return (this.#agent ??= pinnedAgent({
      resolve: this.resolve,
      policy: this.policy,
      connectTimeoutMs: this.o.timeoutMs,
    }));
  }

  /** Downloads a file (2xx answers only), named after the URL's last path segment. */
  fetch(url: string): TaskEither<GatewayError, NewFile> {
    return async () => {
      const r = await this.get(url)();
      if (r._tag === 'Left') return r;
      const res = r.right;
      if (res.status < 200 || res.status > 299)
        return E.left(
          invalidInput(
            `${url} answered HTTP ${res.status}; the file could not be downloaded. Check the URL.`,
            'url',
            'a URL that answers with the file',
          ),
        );
      const mimetype = (res.headers['content-type'] ?? '').split(';')[0]!.trim() || 'application/octet-stream';
      return E.right({ name: fileNameOf(new URL(res.url)), mimetype, content: res.body });
    };
  }

  get(url: string, limits: FetchLimits = {}): TaskEither<GatewayError, FetchedResource> {
    const maxBytes = Math.min(limits.maxBytes ?? this.o.maxBytes, this.o.maxBytes);
    return async () => {
      const signal = AbortSignal.timeout(this.o.timeoutMs);
      try {
        return await this.follow(url, maxBytes, limits, signal);
      } catch (e) {
        return E.left(this.failure(url, e, signal));
      }
    };
  }

  /** Whether a URL may be fetched at all: scheme, no credentials, and the host's addresses (early check; the connection checks again). */
  async check(url: string): Promise<Either<GatewayError, URL>> {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return E.left(
        invalidInput(`"${url.slice(0, 200)}" is not a URL. Give an http or https address.`, 'url', 'http(s) URL'),
      );
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      return E.left(
        invalidInput(
          `Only http and https URLs can be fetched, not ${u.protocol.replace(':', '')}.`,
          'url',
          'http(s) URL',
        ),
      );
    if (u.username || u.password)
      return E.left(
        invalidInput(
          'URLs with a user name or password are not fetched. Give a URL without credentials.',
          'url',
          EXPECTED,
        ),
      );
    const host = u.hostname.replace(/^\[|\]$/g, '');
    try {
      if (isIpLiteral(host)) {
        const v = this.policy(host);
        if (!v.allowed) throw new AddressRefused(host, v.reason);
      } else await resolveChecked(host, this.resolve, this.policy);
    } catch (e) {
      return E.left(this.failure(url, e));
    }
    return E.right(u);
  }

  /** Closes pooled connections (shutdown, tests). */
  async close(): Promise<void> {
    const agent = await this.#agent;
    await agent?.close();
  }

  private async follow(
    url: string,
    maxBytes: number,
    limits: FetchLimits,
    signal: AbortSignal,
  ): Promise<Either<GatewayError, FetchedResource>> {
    const maxRedirects = this.o.maxRedirects ?? 3;
    let current = url;
    for (let hop = 0; ; hop++) {
      const checked = await this.check(current);
      if (checked._tag === 'Left')
        return hop === 0
          ? checked
          : E.left({
              ...checked.left,
              message: `${url} redirects to ${current}, which is refused: ${checked.left.message}`,
            });
      const u = checked.right;
      const [{ request }, dispatcher] = await Promise.all([loadUndici(), this.agent()]);
      const res = await request(u, {
        method: 'GET',
        dispatcher,
        signal,
        headers: {
          ...limits.headers,
          accept: limits.accept ?? '*/*',
          'user-agent': this.o.userAgent ?? 'tool-gateway',
        },
      });
      const headers = flatHeaders(res.headers);
      if (isRedirect(res.statusCode) && headers['location']) {
        await res.body.dump();
        if (hop >= maxRedirects)
          return E.left(
            invalidInput(
              `${url} redirects more than ${maxRedirects} times; the gateway stops there. Give the final URL.`,
              'url',
              'a URL that answers with the file',
            ),
          );
        try {
          current = new URL(headers['location'], u).toString();
        } catch {
          return E.left(invalidInput(`${url} redirects to an address that is not a URL.`, 'url', EXPECTED));
        }
        continue;
      }
      const declared = Number(headers['content-length'] ?? NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        discard(res.body);
        return E.left(this.tooLarge(url, maxBytes));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.byteLength;
        if (size > maxBytes) {
          discard(res.body);
          return E.left(this.tooLarge(url, maxBytes));
        }
        chunks.push(chunk);
      }
      return E.right({
        status: res.statusCode,
        url: u.toString(),
        headers,
        body: new Uint8Array(Buffer.concat(chunks)),
      });
    }
  }

  private tooLarge(url: string, maxBytes: number): GatewayError {
    const size = maxBytes >= 1048576 ? `${Math.round(maxBytes / 1048576)} MB` : `${maxBytes} bytes`;
    return invalidInput(
      `${url} is larger than the ${size} the gateway downloads.`,
      'url',
      `a file of at most ${maxBytes} bytes`,
    );
  }

  private failure(url: string, e: unknown, signal?: AbortSignal): GatewayError {
    const err =
      (e as { cause?: unknown })?.cause instanceof Error &&
      !(e instanceof AddressRefused || e instanceof HostUnresolved)
        ? (e as { cause: Error }).cause
        : e;
    if (err instanceof AddressRefused)
      return invalidInput(
        `${url} points to a loopback, private, link-local or reserved address (${err.reason}), which the gateway does not fetch. ${this.o.privateHint ?? 'Give a public URL, or upload the content with records_uploadFiles (content_base64).'}`,
        'url',
        EXPECTED,
      );
    if (err instanceof HostUnresolved)
      return invalidInput(
        `The host ${err.host} could not be resolved. Check the URL.`,
        'url',
        'a reachable public URL',
      );
    const name = (err as { name?: string })?.name;
    if (signal?.aborted || name === 'TimeoutError' || name === 'AbortError' || name === 'ConnectTimeoutError')
      return invalidInput(
        `${url} did not deliver the file within ${this.o.timeoutMs} ms.`,
        'url',
        'a URL that answers quickly',
      );
    return upstreamFailure(
      'file host',
      `${url} could not be downloaded (${(err as Error)?.message ?? 'network error'}). A retry is safe.`,
      { retryable: true },
    );
  }
}

/** Stops reading a body and drops the connection; the abort this raises is expected, not an error. */
const discard = (body: NodeJS.ReadableStream & { destroy(): void }): void => {
  body.on('error', () => undefined);
  body.destroy();
};

const flatHeaders = (h: Record<string, string | string[] | undefined>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
};
