import { answerWith } from '../podio-server.js';
import { parseMultipart } from './multipart.js';
import type { ItemsContext } from './items-context.js';

// Podio's file upload (multipart POST /file/v2/, as podio-rb, podio-dotnet and podio-java send it) and delete endpoints on the stand-in.

export const serveFileRoutes = ({ store, bad, route, checkBody, embeds }: ItemsContext): void => {
  const run = answerWith;

  // POST /embed/ (developers.podio.com/doc/embeds/add-an-embed-726483): {url, mode?} -> the embed.
  route('POST', '/embed/', async (req) => {
    const problem = checkBody(req, ['url', 'mode'], ['url']);
    if (problem) return bad(req, problem);
    const url = (req.body as Record<string, unknown>)['url'];
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return bad(req, 'url must be an http(s) address');
    if (embeds.size >= 10_000) return bad(req, 'too many embeds on this stand-in');
    const embed_id = 700_001 + embeds.size;
    const title = new URL(url).hostname;
    embeds.set(embed_id, { url, title });
    return { status: 200, body: { embed_id, original_url: url, resolved_url: url, type: 'link', title } };
  });

  route('POST', '/file/v2/', async (req) => {
    const body = req.body as { multipart?: string; bytes?: Buffer } | undefined;
    if (!body?.multipart || !body.bytes)
      return bad(req, 'POST /file/v2/ takes multipart/form-data with the file in "source" and a "filename" field');
    const parts = parseMultipart(body.multipart, body.bytes);
    const source = parts?.find((p) => p.name === 'source' && p.filename !== undefined);
    const filename = parts?.find((p) => p.name === 'filename' && p.filename === undefined)?.data.toString('utf8');
    if (!parts || !source || !filename)
      return bad(req, 'POST /file/v2/ needs a "source" file part and a "filename" field');
    const unknown = parts.find((p) => p.name !== 'source' && p.name !== 'filename');
    if (unknown) return bad(req, `unknown multipart member "${unknown.name}"`);
    return run(
      req,
      store.uploadFile({
        name: filename,
        mimetype: source.contentType ?? 'application/octet-stream',
        content: source.data,
      }),
      (f) => ({
        status: 200,
        body: {
          file_id: f.file_id,
          name: f.name,
          mimetype: f.mimetype,
          size: f.size,
          link: `https://files.podio.com/${f.file_id}`,
          hosted_by: 'podio',
        },
      }),
    );
  });

  route('DELETE', '/file/:file_id', async (req) =>
    run(req, store.deleteFile(Number(req.params['file_id'])), () => ({ status: 204 })),
  );
};
