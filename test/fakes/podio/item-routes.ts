import { validateFields } from '../../../domain/records/field-input.js';
import { answerWith, podioError } from '../podio-server.js';
import { podioItem } from './podio-shapes.js';
import type { ItemsContext } from './items-context.js';

// Podio's item endpoints on the stand-in: read, create, update and delete.

export const serveItemRoutes = ({
  store,
  bad,
  checkQuery,
  checkBody,
  flags,
  appOf,
  itemReply,
  writeInput,
  route,
  itemId,
}: ItemsContext): void => {
  const run = answerWith;

  route('GET', '/item/:item_id', async (req) => {
    const problem = checkQuery(req, ['mark_as_viewed']);
    if (problem) return bad(req, problem);
    return run(req, store.get(itemId(req)), itemReply);
  });

  route('POST', '/item/app/:app_id/', async (req) => {
    const problem =
      checkQuery(req, ['hook', 'silent']) ??
      checkBody(
        req,
        ['external_id', 'fields', 'file_ids', 'tags', 'reminder', 'recurrence', 'linked_account_id', 'ref'],
        ['fields'],
      );
    if (problem) return bad(req, problem);
    const app = await appOf(Number(req.params['app_id']));
    if (!app) return { status: 404, body: podioError('not_found', 'Object not found', req) };
    const input = writeInput(req, app);
    if ('problem' in input) return bad(req, input.problem);
    const checked = validateFields(app, input.fields, 'create');
    if (checked._tag === 'Left') return { status: 400, body: podioError('invalid_value', checked.left.message, req) };
    const externalId = (req.body as { external_id?: unknown }).external_id;
    if (typeof externalId === 'string')
      // an item with an external_id (a job's idempotency mark, issue 40): the store keeps the mark
      return run(req, store.createKeyed(app, checked.right, flags(req), externalId), (r) => ({
        status: 200,
        body: { item_id: r.record_id, link: r.record_url, rights: [] },
      }));
    return run(req, store.create(app, checked.right, flags(req)), (r) => ({
      status: 200,
      body: {
        item_id: r.record_id,
        title: r.title,
        app_item_id: r.app_record_id,
        link: podioItem(app, r)['link'],
        rights: [],
      },
    }));
  });

  route('GET', '/item/app/:app_id/external_id/:external_id', async (req) => {
    const app = await appOf(Number(req.params['app_id']));
    if (!app) return { status: 404, body: podioError('not_found', 'Object not found', req) };
    const found = await store.findKeyed(app, decodeURIComponent(req.params['external_id'] ?? ''))();
    if (found._tag === 'Left' || found.right === undefined)
      return { status: 404, body: podioError('not_found', 'Object not found', req) };
    return { status: 200, body: { item_id: found.right.record_id, link: found.right.record_url } };
  });

  route('PUT', '/item/:item_id', async (req) => {
    const problem =
      checkQuery(req, ['hook', 'silent']) ??
      checkBody(
        req,
        ['revision', 'external_id', 'fields', 'file_ids', 'tags', 'reminder', 'recurrence', 'linked_account_id', 'ref'],
        [],
      );
    if (problem) return bad(req, problem);
    const current = await store.get(itemId(req))();
    if (current._tag === 'Left') return run(req, store.get(itemId(req)), itemReply);
    const app = (await appOf(current.right.app_id))!;
    const input = writeInput(req, app);
    if ('problem' in input) return bad(req, input.problem);
    const checked = validateFields(app, input.fields, 'update');
    if (checked._tag === 'Left') return { status: 400, body: podioError('invalid_value', checked.left.message, req) };
    return run(req, store.update(app, itemId(req), checked.right, flags(req)), (r) => ({
      status: 200,
      body: { revision: r.revision, title: r.title },
    }));
  });

  route('DELETE', '/item/:item_id', async (req) => {
    const problem = checkQuery(req, ['hook', 'silent']);
    if (problem) return bad(req, problem);
    return run(req, store.delete(itemId(req), flags(req)), () => ({ status: 204 }));
  });
};
