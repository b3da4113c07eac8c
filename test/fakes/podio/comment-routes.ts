import { answerWith } from '../podio-server.js';
import { podioComment } from './podio-shapes.js';
import { isId } from './podio-write-values.js';
import type { ItemsContext } from './items-context.js';

type Json = Record<string, unknown>;

// Podio's item comment endpoints on the stand-in: create, read, list and delete.

export const serveCommentRoutes = ({
  comments,
  bad,
  checkQuery,
  checkBody,
  flags,
  route,
  itemId,
}: ItemsContext): void => {
  const run = answerWith;

  route('POST', '/comment/item/:item_id/', async (req) => {
    const problem =
      checkQuery(req, ['alert_invite', 'hook', 'silent']) ??
      checkBody(req, ['value', 'external_id', 'file_ids', 'embed_id', 'embed_url'], ['value']);
    if (problem) return bad(req, problem);
    const body = req.body as Json;
    if (
      typeof body['value'] !== 'string' ||
      (body['file_ids'] !== undefined && !(Array.isArray(body['file_ids']) && body['file_ids'].every(isId)))
    )
      return bad(req, 'value must be a string and file_ids a list of ids');
    return run(
      req,
      comments.create(itemId(req), body['value'], (body['file_ids'] as number[] | undefined) ?? [], flags(req)),
      (c) => ({ status: 200, body: { comment_id: c.comment_id, granted_users: [] } }),
    );
  });
  route('GET', '/comment/:comment_id', async (req) =>
    run(req, comments.get(Number(req.params['comment_id'])), (c) => ({ status: 200, body: podioComment(c) })),
  );
  route('GET', '/comment/item/:item_id/', async (req) => {
    const problem = checkQuery(req, ['limit', 'offset']);
    if (problem) return bad(req, problem);
    return run(
      req,
      comments.list(itemId(req), Number(req.query['offset'] ?? 0), Number(req.query['limit'] ?? 100)),
      (page) => ({ status: 200, body: page.comments.map(podioComment) }),
    );
  });
  route('DELETE', '/comment/:comment_id', async (req) => {
    const problem = checkQuery(req, []);
    if (problem) return bad(req, problem);
    return run(req, comments.delete(Number(req.params['comment_id']), flags(req)), () => ({ status: 204 }));
  });
};
