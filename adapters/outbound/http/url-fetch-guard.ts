import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { invalidInput, upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { E, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import type { NewFile } from '../../../ports/record-store.js';
import type { UrlFetcher } from '../../../ports/url-fetcher.js';

export interface UrlFetchGuardOptions {
  /** Largest download in bytes. */
  readonly maxBytes: number;
  readonly timeoutMs: number;
  /** Allow loopback, private and link-local addresses (local development only). */
  readonly allowPrivate: boolean;
  readonly maxRedirects?: number;
  /** Name resolution (replaceable in tests). */
  readonly resolve?: (host: string) => Promise<readonly string[]>;
}

const v4 = (ip: string): number[] => ip.split('.').map(Number);

/** Loopback, private, link-local, unspecified, CGNAT, multicast and similar non-public addresses. */
export const isNonPublicAddress = (ip: string): boolean => {
  const lower = ip.toLowerCase();
  if (lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4) return isNonPublicAddress(lower.slice(7));
  if (isIP(ip) === 4) {
    const [a, b] = v4(ip) as [number, number];
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127) || a >= 224;
  }
  return lower === '::' || lower === '::1' || lower.startsWith('fe8') || lower.startsWith('fe9') || lower.startsWith('fea') || lower.startsWith('feb') || lower.startsWith('fc') || lower.startsWith('fd') || lower.startsWith('ff');
};

const defaultResolve = async (host: string): Promise<readonly string[]> => (await lookup(host, { all: true })).map((a) => a.address);

/** Fetches attachment URLs: http and https only, public addresses only (unless allowed), size and time limits, redirects re-checked. */
export class UrlFetchGuard implements UrlFetcher {
  constructor(private readonly o: UrlFetchGuardOptions) {}

  fetch(url: string): TaskEither<GatewayError, NewFile> {
    return () => this.run(url, this.o.maxRedirects ?? 3).catch((e: unknown) => E.left(this.failure(url, e)));
  }

  /** Whether a URL may be fetched at all (scheme and address). */
  async check(url: string): Promise<Either<GatewayError, URL>> {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return E.left(invalidInput(`"${url}" is not a URL. Give an http or https address.`, 'url', 'http(s) URL'));
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return E.left(invalidInput(`Only http and https URLs can be fetched, not ${u.protocol.replace(':', '')}.`, 'url', 'http(s) URL'));
    if (this.o.allowPrivate) return E.right(u);
    const host = u.hostname.replace(/^\[|\]$/g, '');
    let addresses: readonly string[];
    try {
      addresses = isIP(host) ? [host] : await (this.o.resolve ?? defaultResolve)(host);
    } catch {
      return E.left(invalidInput(`The host ${host} could not be resolved. Check the URL.`, 'url', 'a reachable public URL'));
    }
    if (addresses.length === 0 || addresses.some(isNonPublicAddress))
      return E.left(invalidInput(`${host} points to a loopback, private or link-local address, which the gateway does not fetch. Give a public URL, or upload the content with records_uploadFiles (content_base64).`, 'url', 'a public http(s) URL'));
    return E.right(u);
  }

  private async run(url: string, redirectsLeft: number): Promise<Either<GatewayError, NewFile>> {
    const checked = await this.check(url);
    if (checked._tag === 'Left') return checked;
    const u = checked.right;
    const res = await fetch(u, { redirect: 'manual', signal: AbortSignal.timeout(this.o.timeoutMs) });
    if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
      if (redirectsLeft <= 0) return E.left(invalidInput(`${url} redirects too often.`, 'url', 'a URL that answers with the file'));
      return this.run(new URL(res.headers.get('location')!, u).toString(), redirectsLeft - 1);
    }
    if (!res.ok) return E.left(invalidInput(`${url} answered HTTP ${res.status}; the file could not be downloaded. Check the URL.`, 'url', 'a URL that answers with the file'));
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > this.o.maxBytes) return E.left(this.tooLarge(url));
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = res.body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > this.o.maxBytes) {
        await reader.cancel();
        return E.left(this.tooLarge(url));
      }
      chunks.push(value);
    }
    const name = decodeURIComponent(u.pathname.split('/').filter(Boolean).pop() ?? '') || 'download';
    return E.right({ name, mimetype: (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim(), content: Buffer.concat(chunks) });
  }

  private tooLarge(url: string): GatewayError {
    return invalidInput(`${url} is larger than the ${Math.round(this.o.maxBytes / 1048576)} MB the gateway downloads.`, 'url', `a file of at most ${this.o.maxBytes} bytes`);
  }

  private failure(url: string, e: unknown): GatewayError {
    const name = (e as { name?: string })?.name;
    if (name === 'TimeoutError' || name === 'AbortError') return invalidInput(`${url} did not deliver the file within ${this.o.timeoutMs} ms.`, 'url', 'a URL that answers quickly');
    return upstreamFailure('file host', `${url} could not be downloaded (${(e as Error)?.message ?? 'network error'}).`, { retryable: true });
  }
}
