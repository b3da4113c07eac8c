import { bool, type Json, type SfRoute } from './exchange.js';

// ShareFile's download and upload operations on the stand-in: Items(id)/Download (a redirect, or the
// DownloadSpecification with redirect=false) and Items(id)/Upload2 (an UploadSpecification whose addresses
// the in-memory store signs).

export const TRANSFER_ROUTES: readonly SfRoute[] = [
  {
    method: 'GET',
    path: /^\/Items\(([^)]+)\)\/Download$/,
    handle: ({ items, url, reply, flags }, { res, q, match }) => {
      if (q.get('redirect') !== 'false' || flags.redirectDownloads)
        return reply.send(res, 302, undefined, { location: `${url}/download/${match[1]}` });
      return reply.run(
        res,
        items.downloadLink(match[1]!, { includeAllVersions: bool(q.get('includeAllVersions')) }),
        (d) =>
          reply.send(res, 200, {
            'odata.type': 'ShareFile.Api.Models.DownloadSpecification',
            DownloadToken: d.DownloadToken,
            DownloadUrl: d.DownloadUrl,
          }),
      );
    },
  },
  {
    method: 'POST',
    path: /^\/Items\(([^)]+)\)\/Upload2$/,
    handle: ({ items, reply, flags }, { res, logged, body, match }) => {
      if (!reply.checked(logged, 'itemsUpload2.request.json'))
        return reply.sfError(res, 400, 'BadRequest', 'Request body does not match UploadRequestParams');
      const b = body as Json;
      return reply.run(
        res,
        items.uploadLink(match[1]!, {
          fileName: String(b['FileName'] ?? ''),
          ...(typeof b['FileSize'] === 'number' ? { fileSize: b['FileSize'] } : {}),
          canResume: b['CanResume'] !== false,
          startOver: b['StartOver'] === true,
          overwrite: b['Overwrite'] === true,
          notify: b['Notify'] === true,
        }),
        (s) =>
          reply.send(res, 200, {
            'odata.type': 'ShareFile.Api.Models.UploadSpecification',
            ...s,
            ...(flags.chunkUriSuffix ? { ChunkUri: `${s.ChunkUri}${flags.chunkUriSuffix}` } : {}),
            ExpiresAt: undefined,
            ChunkSizeBytes: undefined,
          }),
      );
    },
  },
];
