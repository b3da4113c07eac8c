import { InMemoryPodioAccount } from '../../adapters/outbound/memory/in-memory-podio-account.js';
import { InMemoryRecords } from '../../adapters/outbound/memory/in-memory-records.js';
import { seedDemoRecords } from '../../adapters/outbound/memory/demo/records.js';
import type { Clock } from '../../ports/clock.js';
import { serveAppRoutes } from './podio/app-routes.js';
import { serveCommentRoutes } from './podio/comment-routes.js';
import { serveFileRoutes } from './podio/file-routes.js';
import { serveFilterRoute } from './podio/filter-route.js';
import { itemsContext } from './podio/items-context.js';
import { serveItemRoutes } from './podio/item-routes.js';
import { serveRevisionRoutes } from './podio/revision-routes.js';
import type { PodioServer } from './podio-server.js';

// Podio's app, view, item, filter, revision, reference, find, comment and file endpoints (developers.podio.com/doc) on
// the local stand-in, answering in Podio's shapes from an in-memory records store with the demo apps.
// Paths, query parameters, body members and field value formats are checked; anything else is recorded
// in the server's violations. The routes live in podio/, one file per group of endpoints.

export { podioApp, podioFieldType, podioItem } from './podio/podio-shapes.js';

export interface PodioItems {
  readonly store: InMemoryRecords;
}

export const servePodioItems = (
  server: PodioServer,
  clock: Clock,
  account: InMemoryPodioAccount = InMemoryPodioAccount.withDemoData(),
): PodioItems => {
  const store = new InMemoryRecords({ clock, account });
  seedDemoRecords(store);
  const ctx = itemsContext(server, clock, account, store, store.commentsPort());
  serveAppRoutes(ctx);
  serveItemRoutes(ctx);
  serveFilterRoute(ctx);
  serveRevisionRoutes(ctx);
  serveFileRoutes(ctx);
  serveCommentRoutes(ctx);
  return { store };
};
