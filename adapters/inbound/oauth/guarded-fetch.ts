import { E } from '../../../domain/shared/fp.js';
import type { GuardedFetcher } from '../../../ports/url-fetcher.js';

// Client ID Metadata Documents are fetched through the gateway's one hardened URL guard (global addresses
// only, each connection pinned to the checked address, every redirect hop checked, size and time limits):
// this turns the GuardedFetcher port into the `fetch` oidc-provider calls.

/** Largest metadata document read (oidc-provider applies its own limit too). */
const DOCUMENT_LIMIT = 64 * 1024;

export const guardedFetch =
  (guard: GuardedFetcher) =>
  async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    if ((init?.method ?? 'GET').toUpperCase() !== 'GET') throw new TypeError('only GET is fetched through the guard');
    const accept = new Headers(init?.headers).get('accept') ?? 'application/json';
    const answer = await guard.get(url, { maxBytes: DOCUMENT_LIMIT, accept })();
    if (E.isLeft(answer)) throw new TypeError(`fetch refused: ${answer.left.message}`);
    const { status, headers, body } = answer.right;
    return new Response(status === 204 || status === 304 ? null : Buffer.from(body), { status, headers });
  };
