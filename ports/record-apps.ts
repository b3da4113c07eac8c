import type { ServiceIdentifier } from 'inversify';
import type { App, AppSummary, AppView } from '../domain/records/app.js';
import type { GatewayError } from '../domain/shared/errors.js';
import type { TaskEither } from '../domain/shared/fp.js';

/** The apps (record databases) of the account and their views. Contract: test/ports/record-apps.contract.ts. */
export interface RecordApps {
  /** Apps of one workspace (space), or of every workspace the account sees. */
  listApps(workspaceId?: number): TaskEither<GatewayError, readonly AppSummary[]>;
  /**
   * How many records each of `appIds` holds (active ones; the trash is not counted). One vendor call per
   * app at most; an app missing from the answer was not counted (a backend may count only the first ones,
   * and leaves out an app whose count failed), so a listing never fails for its counts.
   */
  recordCounts(appIds: readonly number[]): TaskEither<GatewayError, ReadonlyMap<number, number>>;
  /** An app with its field definitions; NotFound names records_listApps. */
  getApp(appId: number): TaskEither<GatewayError, App>;
  getViews(appId: number): TaskEither<GatewayError, readonly AppView[]>;
  /** A view by id (app_id helps backends that address views through their app). */
  getView(
    viewId: number,
    appId?: number,
  ): TaskEither<GatewayError, { readonly app_id: number; readonly view: AppView }>;
}

export const RecordApps = Symbol.for('RecordApps') as ServiceIdentifier<RecordApps>;
