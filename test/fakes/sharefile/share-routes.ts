import { bool, type Exchange, type Json, type SfRoute } from './exchange.js';
import { sfShare } from './sharefile-shapes.js';

// ShareFile's share operations on the stand-in: read (with $expand=Items,Recipients), list (both types; a
// $filter is recorded as a departure), create a Send or Request share, update, delete, resend, and the share's Download action
// (ShareFile-NET SharesEntity.Download: 302 to the address, or with redirect=false a DownloadSpecification).

const SHARE = /^\/Shares\(([^)]+)\)$/;

const expandOf = (x: Exchange): string[] => (x.q.get('$expand') ?? '').split(',').filter(Boolean);

export const SHARE_ROUTES: readonly SfRoute[] = [
  {
    method: 'GET',
    path: SHARE,
    handle: ({ shares, api, reply }, x) => {
      const expand = expandOf(x);
      return reply.run(
        x.res,
        shares.get(x.match[1]!, {
          includeItems: expand.includes('Items'),
          includeRecipients: expand.includes('Recipients'),
        }),
        (s) => reply.send(x.res, 200, sfShare(api, s, expand)),
      );
    },
  },
  {
    method: 'GET',
    path: /^\/Shares\(([^)]+)\)\/Download$/,
    handle: ({ shares, reply, flags }, { res, q, match }) =>
      reply.run(res, shares.downloadLink(match[1]!), (d) =>
        q.get('redirect') !== 'false' || flags.redirectDownloads
          ? reply.send(res, 302, undefined, { location: d.DownloadUrl })
          : reply.send(res, 200, {
              'odata.type': 'ShareFile.Api.Models.DownloadSpecification',
              DownloadUrl: d.DownloadUrl,
            }),
      ),
  },
  {
    method: 'GET',
    path: /^\/Shares$/,
    handle: ({ shares, api, reply }, { res, logged, q }) => {
      // No document shows the Shares feed honours $filter (ShareFile-NET SharesEntity.Get takes no type): the
      // stand-in records one as a departure and lists both types, as ShareFile may.
      if (q.has('$filter')) reply.violation(logged, 'GET /Shares: no document shows the feed honours $filter');
      const top = Number(q.get('$top') ?? '50');
      const skip = Number(q.get('$skip') ?? '0');
      return reply.run(
        res,
        shares.list({
          top,
          skip,
          includeExpired: bool(q.get('includeExpired')),
        }),
        (page) =>
          reply.send(res, 200, {
            'odata.count': page.totalCount,
            value: page.shares.map((s) => sfShare(api, s, [])),
            ...(skip + page.shares.length < page.totalCount
              ? { 'odata.nextLink': `${api}/Shares?$skip=${skip + page.shares.length}&$top=${top}` }
              : {}),
          }),
      );
    },
  },
  {
    method: 'POST',
    path: /^\/Shares$/,
    handle: ({ shares, api, reply }, { res, logged, body }) => {
      const b = body as Json;
      const name = b['ShareType'] === 'Request' ? 'createShare-request.request.json' : 'createShare-send.request.json';
      if (!reply.checked(logged, name))
        return reply.sfError(res, 400, 'BadRequest', 'Request body does not match Share');
      return reply.run(
        res,
        shares.create({
          shareType: b['ShareType'] === 'Request' ? 'Request' : 'Send',
          itemIds: ((b['Items'] as Json[] | undefined) ?? []).map((i) => String(i['Id'])),
          ...((b['Parent'] as Json | undefined)?.['Id'] ? { parentId: String((b['Parent'] as Json)['Id']) } : {}),
          ...(typeof b['Title'] === 'string' ? { title: b['Title'] } : {}),
          ...(typeof b['ExpirationDate'] === 'string' ? { expirationDate: b['ExpirationDate'] } : {}),
          maxDownloads: typeof b['MaxDownloads'] === 'number' ? b['MaxDownloads'] : -1,
          requireLogin: b['RequireLogin'] === true,
          requireUserInfo: b['RequireUserInfo'] === true,
          isViewOnly: b['IsViewOnly'] === true,
          notifyOnDownload:
            b['ShareType'] !== 'Request' && (b['Settings'] as Json | undefined)?.['NotifyOnUse'] === true,
          notifyOnUpload: b['ShareType'] === 'Request' && (b['Settings'] as Json | undefined)?.['NotifyOnUse'] === true,
          recipients: [],
        }),
        (s) => reply.send(res, 200, sfShare(api, s, [])),
      );
    },
  },
  {
    method: 'PATCH',
    path: SHARE,
    handle: ({ shares, api, reply }, { res, logged, body, match }) => {
      if (!reply.checked(logged, 'updateShare.request.json'))
        return reply.sfError(res, 400, 'BadRequest', 'Request body does not match Share');
      const b = body as Json;
      return reply.run(
        res,
        shares.update(match[1]!, {
          ...(typeof b['Title'] === 'string' ? { title: b['Title'] } : {}),
          ...(typeof b['ExpirationDate'] === 'string' ? { expirationDate: b['ExpirationDate'] } : {}),
          ...(typeof b['MaxDownloads'] === 'number' ? { maxDownloads: b['MaxDownloads'] } : {}),
          ...(typeof b['RequireLogin'] === 'boolean' ? { requireLogin: b['RequireLogin'] } : {}),
          ...(typeof b['RequireUserInfo'] === 'boolean' ? { requireUserInfo: b['RequireUserInfo'] } : {}),
          ...(typeof b['IsViewOnly'] === 'boolean' ? { isViewOnly: b['IsViewOnly'] } : {}),
        }),
        (s) => reply.send(res, 200, sfShare(api, s, [])),
      );
    },
  },
  {
    method: 'DELETE',
    path: SHARE,
    handle: ({ shares, reply }, { res, match }) => reply.run(res, shares.delete(match[1]!), () => reply.send(res, 204)),
  },
  {
    method: 'POST',
    path: /^\/Shares\/Resend$/,
    handle: ({ shares, api, reply, resends }, { res, logged, body }) => {
      if (!reply.checked(logged, 'sharesResend.request.json'))
        return reply.sfError(res, 400, 'BadRequest', 'Request body does not match ShareResendParams');
      const b = body as Json;
      return reply.run(
        res,
        shares.get(String(b['ShareId']), { includeItems: false, includeRecipients: false }),
        (s) => {
          resends.push(b);
          shares.markSent(s.Id, (b['Recipients'] as string[]) ?? []);
          reply.send(res, 200, sfShare(api, { ...s, HasSentMessage: true }, []));
        },
      );
    },
  },
];
