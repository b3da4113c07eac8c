import type { App, AppSummary, AppView } from '../../../domain/records/app.js';
import { invalidInput, type GatewayError } from '../../../domain/shared/errors.js';
import { E, pipe, TE, type TaskEither } from '../../../domain/shared/fp.js';
import type { RecordApps } from '../../../ports/record-apps.js';
import type { PodioClient } from './podio-client.js';
import * as t from 'io-ts';
import { LRUCache } from 'lru-cache';
import { PodioApp, PodioAppEntry, PodioItemCount, PodioView } from './podio-record-codecs.js';
import { toApp, toAppSummary, toView } from './podio-record-mapping.js';

/** Apps whose records one listing counts at most, and counts asked of Podio at once. */
export const PODIO_COUNTED_APPS = 25;
const COUNTS_AT_ONCE = 5;

/** How long an app's record count and a saved view are kept: a listing asked again within it is one call. */
export const PODIO_SHORT_CACHE_SECONDS = 60;

/**
 * Podio's apps and views (`/app/`, `/view/app/{id}/`). An app definition, once read, is kept (at most
 * `maxApps`, each for `ttlSeconds`, 10 minutes by default): every record read needs its fields. `forget`
 * drops one, for a write Podio refused because the definition changed. Record counts and saved views are
 * kept for a minute (`shortTtlSeconds`), so that asking again costs one vendor call (issue 31): a count is
 * then at most a minute old, and a view changed in Podio shows within a minute.
 */
export class PodioRecordApps implements RecordApps {
  private readonly appCache: LRUCache<number, App>;
  private readonly countCache: LRUCache<number, number>;
  private readonly viewCache: LRUCache<string, AppView>;
  private readonly countedApps: number;

  constructor(
    private readonly podio: PodioClient,
    cache: {
      readonly maxApps?: number;
      readonly ttlSeconds?: number;
      readonly countedApps?: number;
      readonly shortTtlSeconds?: number;
    } = {},
  ) {
    this.appCache = new LRUCache({ max: cache.maxApps ?? 500, ttl: (cache.ttlSeconds ?? 600) * 1000 || 1 });
    const short = (cache.shortTtlSeconds ?? PODIO_SHORT_CACHE_SECONDS) * 1000 || 1;
    this.countCache = new LRUCache({ max: 2_000, ttl: short });
    this.viewCache = new LRUCache({ max: 500, ttl: short });
    this.countedApps = cache.countedApps ?? PODIO_COUNTED_APPS;
  }

  /**
   * Podio's documented item count, `GET /item/app/{app_id}/count` (`{count}`), once per app: Podio has no
   * call that counts several apps, and its app object carries no count. At most `countedApps` apps (25),
   * five at a time; an app whose count fails is left out, and a rate limit stops the counting (the
   * listing itself is answered either way).
   */
  recordCounts(appIds: readonly number[]): TaskEither<GatewayError, ReadonlyMap<number, number>> {
    return async () => {
      const counts = new Map<number, number>();
      const ids: number[] = [];
      for (const id of appIds.slice(0, this.countedApps)) {
        const kept = this.countCache.get(id);
        if (kept === undefined) ids.push(id);
        else counts.set(id, kept);
      }
      for (let start = 0; start < ids.length; start += COUNTS_AT_ONCE) {
        const answers = await Promise.all(
          ids.slice(start, start + COUNTS_AT_ONCE).map(async (id) => {
            const r = await this.podio.task('GET', `/item/app/${id}/count`, {
              codec: PodioItemCount,
              resource: { kind: 'app', id },
            })();
            if (r._tag === 'Right') {
              counts.set(id, r.right.count);
              this.countCache.set(id, r.right.count);
            }
            return r;
          }),
        );
        if (answers.some((r) => r._tag === 'Left' && r.left._tag === 'RateLimited')) break;
      }
      return E.right(counts);
    };
  }

  forget(appId: number): void {
    this.appCache.delete(appId);
    this.countCache.delete(appId);
  }

  /**
   * Drops a kept record count after the gateway's own write changed it (issue 42): an app's, after a create
   * in it; every app's when the app is not known (a delete names only the item).
   */
  forgetCount(appId?: number): void {
    if (appId === undefined) this.countCache.clear();
    else this.countCache.delete(appId);
  }

  listApps(workspaceId?: number): TaskEither<GatewayError, readonly AppSummary[]> {
    return pipe(
      this.podio.task('GET', workspaceId === undefined ? '/app/v2/' : `/app/space/${workspaceId}/`, {
        codec: t.array(PodioAppEntry),
        resource: { kind: 'workspace', id: workspaceId ?? 0 },
      }),
      TE.map((apps) => apps.map(toAppSummary)),
    );
  }

  getApp(appId: number): TaskEither<GatewayError, App> {
    const cached = this.appCache.get(appId);
    if (cached) return TE.right(cached);
    return pipe(
      this.podio.task('GET', `/app/${appId}`, { codec: PodioApp, resource: { kind: 'app', id: appId } }),
      TE.map((a) => {
        const app = toApp(a);
        this.appCache.set(appId, app);
        return app;
      }),
    );
  }

  getViews(appId: number): TaskEither<GatewayError, readonly AppView[]> {
    return pipe(
      this.podio.task('GET', `/view/app/${appId}/`, {
        codec: t.array(PodioView),
        resource: { kind: 'app', id: appId },
      }),
      TE.map((views) => views.map((v) => toView(v, v.view_id))),
    );
  }

  getView(viewId: number, appId?: number): TaskEither<GatewayError, { app_id: number; view: AppView }> {
    if (appId === undefined)
      return TE.left(
        invalidInput(
          'With Podio a view is addressed through its app: send app_id together with view_id.',
          'app_id',
          'the app of the view',
        ),
      );
    const key = `${appId}:${viewId}`;
    const kept = this.viewCache.get(key);
    if (kept) return TE.right({ app_id: appId, view: kept });
    return pipe(
      this.podio.task('GET', `/view/app/${appId}/${viewId}`, {
        codec: PodioView,
        resource: { kind: 'view', id: viewId },
      }),
      TE.map((v) => {
        const view = toView(v, viewId);
        this.viewCache.set(key, view);
        return { app_id: appId, view };
      }),
    );
  }
}
