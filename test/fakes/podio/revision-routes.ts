import { answerWith } from '../podio-server.js';
import { podioField, podioValues } from './podio-shapes.js';
import type { ItemsContext } from './items-context.js';

type Json = Record<string, unknown>;

// Podio's revision, revision difference, reference and relation search endpoints on the stand-in.

export const serveRevisionRoutes = ({
  store,
  bad,
  checkQuery,
  appOf,
  itemReply,
  route,
  itemId,
}: ItemsContext): void => {
  const run = answerWith;

  route('GET', '/item/:item_id/revision/', async (req) =>
    run(req, store.revisions(itemId(req)), (revs) => ({
      status: 200,
      body: revs.map((r) => ({
        item_revision_id: itemId(req) * 100 + r.revision,
        revision: r.revision,
        app_revision: 1,
        type: r.type,
        created_by: {
          type: 'user',
          id: r.created_by.user_id,
          user_id: r.created_by.user_id,
          name: r.created_by.name,
          mail: r.created_by.mail,
        },
        created_via: { id: 1, name: 'Podio' },
        created_on: r.created_on,
      })),
    })),
  );

  route('GET', '/item/:item_id/revision/:from/:to', async (req) => {
    const current = await store.get(itemId(req))();
    const app = current._tag === 'Right' ? await appOf(current.right.app_id) : undefined;
    return run(
      req,
      store.revisionDelta(itemId(req), Number(req.params['from']), Number(req.params['to'])),
      (deltas) => ({
        status: 200,
        body: deltas.map((d) => {
          const f = app!.fields.find((x) => x.field_id === d.field_id)!;
          return {
            ...podioField(f),
            from: d.from === null ? [] : podioValues(f, d.from),
            to: d.to === null ? [] : podioValues(f, d.to),
          };
        }),
      }),
    );
  });

  route('GET', '/item/:item_id/reference/', async (req) => {
    const found = await store.get(itemId(req))();
    if (found._tag === 'Left') return run(req, store.get(itemId(req)), itemReply);
    const apps = await store.listApps()();
    const groups: Json[] = [];
    for (const a of apps._tag === 'Right' ? apps.right : []) {
      const refs = await store.referencing(itemId(req), a.id)();
      if (refs._tag === 'Right' && refs.right.length)
        groups.push({
          app: { app_id: a.id, name: a.name, item_name: a.item_name },
          items: refs.right.map((r) => ({
            item_id: r.record_id,
            title: r.title,
            link: `https://podio.com/items/${r.record_id}`,
            created_on: r.created_on_utc,
          })),
        });
    }
    return { status: 200, body: groups };
  });

  route('GET', '/item/field/:field_id/find', async (req) => {
    const problem = checkQuery(req, ['text', 'limit', 'not_item_id']);
    if (problem) return bad(req, problem);
    return run(
      req,
      store.findRelatable(Number(req.params['field_id']), req.query['text'] ?? '', Number(req.query['limit'] ?? 13)),
      async (records) => ({
        status: 200,
        body: await Promise.all(
          records.map(async (r) => {
            const app = (await appOf(r.app_id))!;
            return {
              item_id: r.record_id,
              title: r.title,
              initial_revision: {
                revision: 0,
                user: { user_id: r.created_by.user_id, name: r.created_by.name, avatar: null },
                created_on: r.created_on_utc,
              },
              app: { app_id: app.app_id, name: app.name, item_name: app.item_name, icon: app.icon },
            };
          }),
        ),
      }),
    );
  });
};
