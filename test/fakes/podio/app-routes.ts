import { podioError, answerWith } from '../podio-server.js';
import { podioApp, podioView } from './podio-shapes.js';
import type { ItemsContext } from './items-context.js';

// Podio's user profile, app and view endpoints on the stand-in.

export const serveAppRoutes = ({ account, store, appOf, route, bad, checkQuery }: ItemsContext): void => {
  const run = answerWith;

  // The acting user as the official clients read it (podio-php PodioUserStatus: GET /user/status).
  route('GET', '/user/status', async () => {
    const u = account.actingUser();
    return {
      status: 200,
      body: {
        user: { user_id: u.user_id, mail: u.mail },
        profile: { profile_id: u.profile_id, user_id: u.user_id, name: u.name },
        properties: {},
        inbox_new: 0,
      },
    };
  });

  const appSummary = (a: {
    id: number;
    name: string;
    description: string;
    workspace_id: number;
    item_name: string;
  }) => ({
    app_id: a.id,
    space_id: a.workspace_id,
    status: 'active',
    config: { name: a.name, item_name: a.item_name, description: a.description, icon: '' },
  });
  // Podio's documented "Get all user apps" (podio-php PodioApp::get_all).
  route('GET', '/app/v2/', async (req) =>
    run(req, store.listApps(), (apps) => ({ status: 200, body: apps.map(appSummary) })),
  );
  route('GET', '/app/space/:space_id/', async (req) =>
    run(req, store.listApps(Number(req.params['space_id'])), (apps) => ({ status: 200, body: apps.map(appSummary) })),
  );
  // Podio's documented item count (developers.podio.com/doc/items/get-item-count-34819997): `{count}`, the
  // app's items; a saved view or filters may narrow it (not used by the gateway, so refused here).
  route('GET', '/item/app/:app_id/count', async (req) => {
    const problem = checkQuery(req, []);
    if (problem) return bad(req, problem);
    const appId = Number(req.params['app_id']);
    if (!(await appOf(appId))) return { status: 404, body: podioError('not_found', 'Object not found', req) };
    return run(req, store.recordCounts([appId]), (counts) => ({ status: 200, body: { count: counts.get(appId)! } }));
  });
  route('GET', '/app/:app_id', async (req) =>
    run(req, store.getApp(Number(req.params['app_id'])), (app) => ({ status: 200, body: podioApp(app) })),
  );
  route('GET', '/view/app/:app_id/', async (req) => {
    const app = await appOf(Number(req.params['app_id']));
    return run(req, store.getViews(Number(req.params['app_id'])), (views) => ({
      status: 200,
      body: views.map((v) => podioView(app!, v)),
    }));
  });
  route('GET', '/view/app/:app_id/:view_id', async (req) =>
    run(req, store.getView(Number(req.params['view_id'])), async (v) =>
      v.app_id === Number(req.params['app_id'])
        ? { status: 200, body: podioView((await appOf(v.app_id))!, v.view) }
        : { status: 404, body: podioError('not_found', 'Object not found', req) },
    ),
  );
};
