import type { AxiosResponse } from 'axios';
import { upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../../domain/shared/fp.js';
import type { GuardedFetcher } from '../../../ports/url-fetcher.js';
import { SHAREFILE, type ShareFileClient, type SfRequest } from './sharefile-client.js';

/** Largest children feed read from a symbolic link's remote connector on another host. */
export const SYMLINK_FEED_MAX_BYTES = 8 * 1024 * 1024;

export interface SymlinkListingOptions {
  readonly client: ShareFileClient;
  /** The gateway's one URL fetch guard: a Location on another host is fetched through it, without the token. */
  readonly fetcher?: GuardedFetcher;
  readonly maxBytes?: number;
}

const isRedirect = (status: number): boolean => status >= 300 && status < 400;

/**
 * `Items(id)/Children` on a symbolic-link folder: "A 302 redirection is returned if the folder is a
 * SymbolicLink. The redirection will enumerate the children of the remote connector" (citrix/ShareFile-NET @
 * 679b331, Entities/ItemsEntity.cs, GetChildren remarks). The listing accepts the 3xx and GETs its Location once:
 *  - on the account's own API host (same origin as the API base, https in production) through the ShareFile
 *    client, with the bearer token, as every other call;
 *  - anywhere else through the URL fetch guard (public addresses only, the address pinned, a size limit,
 *    no redirect of its own), and without the token: the account's token never leaves ShareFile's API host.
 * A second redirect is refused. The listing's OData options the Location does not carry are added to it.
 * The answer is the feed's JSON (decoded by the caller).
 */
export const listingData = (
  o: SymlinkListingOptions,
  r: SfRequest,
  folderId: string,
): TaskEither<GatewayError, unknown> =>
  pipe(
    () => o.client.send({ ...r, acceptRedirect: true }),
    TE.chain((res) =>
      isRedirect(res.status) ? follow(o, r, folderId, res) : TE.right<GatewayError, unknown>(res.data),
    ),
  );

const refused = (folderId: string, why: string): GatewayError =>
  upstreamFailure(
    SHAREFILE,
    `Folder ${folderId} is a symbolic link; ShareFile redirected its listing, and the gateway did not follow: ${why}`,
    { retryable: false },
  );

const follow = (
  o: SymlinkListingOptions,
  r: SfRequest,
  folderId: string,
  res: AxiosResponse,
): TaskEither<GatewayError, unknown> => {
  const location = res.headers['location'] as string | undefined;
  if (!location) return TE.left(refused(folderId, `the ${res.status} answer named no Location.`));
  let target: URL;
  const api = new URL(o.client.apiBaseUrl);
  try {
    target = new URL(location, `${o.client.apiBaseUrl}/`);
  } catch {
    return TE.left(refused(folderId, 'its Location is not a URL.'));
  }
  for (const [k, v] of Object.entries(r.query ?? {}))
    if (v !== undefined && !target.searchParams.has(k)) target.searchParams.set(k, String(v));
  const url = target.toString();
  if (target.origin === api.origin)
    return pipe(
      () =>
        o.client.send({ method: 'GET', path: url, acceptRedirect: true, ...(r.subject ? { subject: r.subject } : {}) }),
      TE.chain((again) =>
        isRedirect(again.status)
          ? TE.left(refused(folderId, `${url} redirected again; the gateway follows one redirect.`))
          : TE.right<GatewayError, unknown>(again.data),
      ),
    );
  if (!o.fetcher) return TE.left(refused(folderId, `${url} is on another host and no URL fetch guard is configured.`));
  return pipe(
    o.fetcher.get(url, { maxBytes: o.maxBytes ?? SYMLINK_FEED_MAX_BYTES, accept: 'application/json' }),
    TE.mapLeft((e) => refused(folderId, e.message)),
    TE.chain((answer) => {
      if (answer.status < 200 || answer.status > 299)
        return TE.left<GatewayError, unknown>(
          upstreamFailure(
            SHAREFILE,
            `The remote connector of folder ${folderId} (${url}) answered HTTP ${answer.status}.`,
            {
              retryable: answer.status >= 500,
              status: answer.status,
            },
          ),
        );
      try {
        return TE.right<GatewayError, unknown>(JSON.parse(Buffer.from(answer.body).toString('utf8')));
      } catch {
        return TE.left<GatewayError, unknown>(
          upstreamFailure(
            SHAREFILE,
            `The remote connector of folder ${folderId} (${url}) answered with no JSON feed.`,
            {
              retryable: false,
            },
          ),
        );
      }
    }),
  );
};
