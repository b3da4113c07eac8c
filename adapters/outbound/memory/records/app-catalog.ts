// The apps and views of the in-memory Podio account (the RecordApps port's answers).
import type { App, AppSummary, AppView } from '../../../../domain/records/app.js';
import { notFound, type GatewayError } from '../../../../domain/shared/errors.js';
import { E, TE, type Either, type TaskEither } from '../../../../domain/shared/fp.js';
import type { InMemoryPodioAccount } from '../in-memory-podio-account.js';

export class AppCatalog {
  readonly apps = new Map<number, App>();
  private readonly views = new Map<number, { app_id: number; view: AppView }>();

  constructor(private readonly account: InMemoryPodioAccount) {}

  add(app: App, views: readonly AppView[]): void {
    this.apps.set(app.app_id, app);
    for (const v of views) this.views.set(v.view_id, { app_id: app.app_id, view: v });
  }

  /** Forgets an app and its views (its space was deleted). */
  drop(appId: number): void {
    this.apps.delete(appId);
    for (const [id, v] of this.views) if (v.app_id === appId) this.views.delete(id);
  }

  listApps(workspaceId?: number): TaskEither<GatewayError, readonly AppSummary[]> {
    if (workspaceId !== undefined && !this.account.space(workspaceId))
      return TE.left(
        notFound(
          'workspace',
          String(workspaceId),
          `Workspace ${workspaceId} does not exist. workspaces_getSpace shows a space; leave workspace_id out to list the apps of every workspace.`,
        ),
      );
    const apps = [...this.apps.values()].filter((a) => workspaceId === undefined || a.space_id === workspaceId);
    return TE.right(
      apps.map((a) => ({
        id: a.app_id,
        name: a.name,
        description: a.description,
        workspace_id: a.space_id,
        item_name: a.item_name,
      })),
    );
  }

  getApp(appId: number): TaskEither<GatewayError, App> {
    return TE.fromEither(this.app(appId));
  }

  getViews(appId: number): TaskEither<GatewayError, readonly AppView[]> {
    const app = this.app(appId);
    if (app._tag === 'Left') return TE.left(app.left);
    return TE.right([...this.views.values()].filter((v) => v.app_id === appId).map((v) => v.view));
  }

  getView(viewId: number): TaskEither<GatewayError, { app_id: number; view: AppView }> {
    const v = this.views.get(viewId);
    return v
      ? TE.right(v)
      : TE.left(
          notFound(
            'view',
            String(viewId),
            `View ${viewId} does not exist. records_getAppViews lists the views of an app.`,
          ),
        );
  }

  app(appId: number): Either<GatewayError, App> {
    const app = this.apps.get(appId);
    return app
      ? E.right(app)
      : E.left(
          notFound(
            'app',
            String(appId),
            `App ${appId} does not exist. records_listApps lists the apps of a workspace.`,
          ),
        );
  }
}
