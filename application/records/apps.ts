import { inject, injectable } from 'inversify';
import { valueTypeOf, type App, type AppSummary, type AppView } from '../../domain/records/app.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import { pipe, TE, type TaskEither } from '../../domain/shared/fp.js';
import { RecordApps } from '../../ports/record-apps.js';
import { described, NumericId, params, t } from '../runtime/codecs.js';
import { defineTool, type UseCase } from '../runtime/define-tool.js';
import { call, joinBlocks, nextSteps, plural } from '../runtime/markdown.js';
import { AppResult, AppsResult, ViewsResult } from './record-results.js';

export const ListAppsParams = params(
  {},
  {
    workspace_id: described(NumericId, 'The workspace (space); leave out for all.'),
  },
);
export type ListAppsParams = t.TypeOf<typeof ListAppsParams>;

/** The apps, and how many records each holds (those the backend counted). */
export interface AppsListing {
  readonly apps: readonly AppSummary[];
  readonly counts: ReadonlyMap<number, number>;
}

@injectable()
export class ListApps implements UseCase<ListAppsParams, AppsListing> {
  constructor(@inject(RecordApps) private readonly apps: RecordApps) {}
  execute(p: ListAppsParams): TaskEither<GatewayError, AppsListing> {
    return pipe(
      this.apps.listApps(p.workspace_id),
      TE.chain((apps) =>
        pipe(
          this.apps.recordCounts(apps.map((a) => a.id)),
          TE.map((counts) => ({ apps, counts })),
        ),
      ),
    );
  }
}

/** Under the table when some apps have no count: how to count one. */
const uncountedNote = (r: AppsListing): string | undefined => {
  const missing = r.apps.filter((a) => !r.counts.has(a.id));
  if (missing.length === 0) return undefined;
  return `No record count for ${plural(missing.length, 'app')}: a listing counts a limited number of apps, one call each, and leaves out a count that failed. Count one with ${call('records_listRecords', { app_id: missing[0]!.id, count_only: true })}.`;
};

export const listAppsTool = defineTool({
  group: 'records',
  name: 'listApps',
  title: 'List apps',
  description:
    'The apps (record databases) of a workspace, or of all: id, name, description and how many records each holds.',
  annotations: { kind: 'Read', idempotent: true },
  params: ListAppsParams,
  useCase: ListApps,
  result: AppsResult,
  json: ({ apps, counts }) => ({
    apps: apps.map((a) => ({
      id: a.id,
      name: a.name,
      description: a.description,
      workspace_id: a.workspace_id,
      item_name: a.item_name,
      ...(counts.has(a.id) ? { record_count: counts.get(a.id)! } : {}),
    })),
  }),
  text: (r, p) =>
    r.apps.length === 0
      ? `## No apps${p.workspace_id ? ` in workspace ${p.workspace_id}` : ''}`
      : {
          before: `## Apps${p.workspace_id ? ` in workspace ${p.workspace_id}` : ''}: ${r.apps.length}`,
          columns: ['id', 'name', 'records', 'workspace_id', 'description'],
          rows: r.apps.map((a) => [a.id, a.name, r.counts.get(a.id), a.workspace_id, a.description]),
          notes: uncountedNote(r),
          after: nextSteps([`Fields of an app: ${call('records_getApp', { app_id: r.apps[0]!.id })}`]),
        },
});

export const GetAppParams = params({ app_id: described(NumericId, 'The app id (records_listApps).') }, {});
export type GetAppParams = t.TypeOf<typeof GetAppParams>;

@injectable()
export class GetApp implements UseCase<GetAppParams, App> {
  constructor(@inject(RecordApps) private readonly apps: RecordApps) {}
  execute(p: GetAppParams): TaskEither<GatewayError, App> {
    return this.apps.getApp(p.app_id);
  }
}

export const appJson = (a: App) => ({
  app_id: a.app_id,
  name: a.name,
  item_name: a.item_name,
  description: a.description,
  workspace_id: a.space_id,
  fields: a.fields.map((f) => ({
    field_id: f.field_id,
    external_id: f.external_id,
    label: f.label,
    field_type: f.field_type,
    type: valueTypeOf(f.field_type),
    required: f.required,
    ...(f.description ? { description: f.description } : {}),
    ...(f.options ? { options: f.options } : {}),
    ...(f.referenced_app_ids ? { referenced_app_ids: f.referenced_app_ids } : {}),
    ...(f.currencies ? { currencies: f.currencies } : {}),
  })),
});

export const getAppTool = defineTool({
  group: 'records',
  name: 'getApp',
  title: 'Get an app and its fields',
  description:
    "An app's fields (field_id, external_id, label, type, required, options, related apps, currencies): the ids the other records tools take.",
  annotations: { kind: 'Read', idempotent: true },
  params: GetAppParams,
  useCase: GetApp,
  result: AppResult,
  json: appJson,
  text: (a) => ({
    before: joinBlocks(`## App "${a.name}" (${a.app_id}) in workspace ${a.space_id}`, a.description),
    columns: ['field_id', 'external_id', 'label', 'field_type', 'required', 'options / references'],
    rows: a.fields.map((f) => [
      f.field_id,
      f.external_id,
      f.label,
      f.field_type,
      f.required ? 'yes' : '',
      f.options
        ? f.options.map((o) => `${o.id} ${o.text}${o.means_completed ? ' (done)' : ''}`).join(', ')
        : f.referenced_app_ids
          ? `apps ${f.referenced_app_ids.join(', ')}`
          : f.currencies
            ? f.currencies.join(', ')
            : (f.description ?? ''),
    ]),
    after: nextSteps([
      `Records: ${call('records_listRecords', { app_id: a.app_id })}`,
      `Saved views: ${call('records_getAppViews', { app_id: a.app_id })}`,
    ]),
  }),
});

export const GetAppViewsParams = params({ app_id: described(NumericId, 'The app id.') }, {});
export type GetAppViewsParams = t.TypeOf<typeof GetAppViewsParams>;

@injectable()
export class GetAppViews implements UseCase<GetAppViewsParams, { app_id: number; views: readonly AppView[] }> {
  constructor(@inject(RecordApps) private readonly apps: RecordApps) {}
  execute(p: GetAppViewsParams): TaskEither<GatewayError, { app_id: number; views: readonly AppView[] }> {
    return pipe(
      this.apps.getViews(p.app_id),
      TE.map((views) => ({ app_id: p.app_id, views })),
    );
  }
}

export const getAppViewsTool = defineTool({
  group: 'records',
  name: 'getAppViews',
  title: 'Get the saved views of an app',
  description:
    "The saved views of an app: view_id, name, filters and sort. records_listRecords with view_id lists a view's records.",
  annotations: { kind: 'Read', idempotent: true },
  params: GetAppViewsParams,
  useCase: GetAppViews,
  result: ViewsResult,
  json: (r) => ({
    views: r.views.map((v) => ({
      view_id: v.view_id,
      name: v.name,
      filters: v.filters,
      sort_by: v.sort_by ?? null,
      sort_desc: v.sort_desc ?? false,
    })),
  }),
  text: (r) =>
    r.views.length === 0
      ? `## App ${r.app_id} has no saved views`
      : {
          before: `## Saved views of app ${r.app_id}: ${r.views.length}`,
          columns: ['view_id', 'name', 'filters', 'sort'],
          rows: r.views.map((v) => [
            v.view_id,
            v.name,
            v.filters.length,
            v.sort_by ? `${v.sort_by}${v.sort_desc ? ' desc' : ''}` : '',
          ]),
          after: nextSteps([`Records of a view: ${call('records_listRecords', { view_id: r.views[0]!.view_id })}`]),
        },
});
