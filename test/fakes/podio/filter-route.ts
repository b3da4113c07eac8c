import { valueTypeOf, type App, type FieldDefinition } from '../../../domain/records/app.js';
import { resolveFilters, type FilterInput, type ResolvedFilter } from '../../../domain/records/filters.js';
import { answerWith, podioError, type PodioRouteRequest } from '../podio-server.js';
import { podioItem } from './podio-shapes.js';
import { isId, isObject } from './podio-write-values.js';
import type { ItemsContext } from './items-context.js';

type Json = Record<string, unknown>;

// Podio's item filter (POST /item/app/:app_id/filter/) on the stand-in: Podio's filters (id lists or
// {from, to}) read into our filters and run against the in-memory store.

export const serveFilterRoute = ({ clock, account, store, bad, checkBody, appOf, route }: ItemsContext): void => {
  const run = answerWith;

  /** Podio's paging members (`limit` 1-500, default 30; `offset`), or the problem. */
  const pageOf = (body: Json): { limit: number; offset: number } | string => {
    const limit = body['limit'] ?? 30;
    const offset = body['offset'] ?? 0;
    if (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > 500)
      return 'limit must be an integer from 1 to 500';
    if (!Number.isSafeInteger(offset) || (offset as number) < 0) return 'offset must be a non-negative integer';
    return { limit: limit as number, offset: offset as number };
  };

  /** One page of the app's items matching the filters, in Podio's `{total, filtered, items}`. */
  const itemsPage = async (
    req: PodioRouteRequest,
    app: App,
    q: { filters: readonly ResolvedFilter[]; sort?: FieldDefinition; sortDesc: boolean; offset: number; limit: number },
  ) => {
    const all = await store.query(app, { filters: [], sortDesc: false, offset: 0, limit: 1, countOnly: true })();
    return run(req, store.query(app, { ...q, countOnly: false }), (page) => ({
      status: 200,
      body: {
        total: all._tag === 'Right' ? all.right.total : 0,
        filtered: page.total,
        items: page.records.map((r) => podioItem(app, r)),
      },
    }));
  };

  route('POST', '/item/app/:app_id/filter/', async (req) => {
    const problem = checkBody(req, ['sort_by', 'sort_desc', 'filters', 'limit', 'offset', 'remember'], []);
    if (problem) return bad(req, problem);
    const body = req.body as Json;
    const paging = pageOf(body);
    if (typeof paging === 'string') return bad(req, paging);
    const app = await appOf(Number(req.params['app_id']));
    if (!app) return { status: 404, body: podioError('not_found', 'Object not found', req) };
    const filters: FilterInput[] = [];
    for (const [key, value] of Object.entries(isObject(body['filters']) ? body['filters'] : {})) {
      const system = key === 'created_on' ? 'created_on' : key === 'last_edit_on' ? 'last_modified_on' : undefined;
      const field = system ? undefined : app.fields.find((f) => String(f.field_id) === key || f.external_id === key);
      if (!system && !field) return bad(req, `filter key "${key}" is no field of app ${app.app_id}`);
      const target: Partial<FilterInput> = system ? { field_type: system } : { field_id: field!.field_id };
      if (Array.isArray(value)) {
        if (!value.every(isId)) return bad(req, `filter ${key} takes a list of ids`);
        filters.push({ ...target, match_type: 'any', values: value.map((v) => ({ value: v })) });
      } else if (isObject(value) && Object.keys(value).every((k) => k === 'from' || k === 'to')) {
        const date = system !== undefined || valueTypeOf(field!.field_type) === 'date';
        // Podio's formats (developers.podio.com/index/api): dates YYYY-MM-DD, datetimes YYYY-MM-DD HH:MM:SS.
        const podioDate = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/;
        if (date && [value['from'], value['to']].some((v) => v !== undefined && !podioDate.test(String(v))))
          return bad(req, `filter ${key} takes dates as YYYY-MM-DD or YYYY-MM-DD HH:MM:SS`);
        if (value['from'] !== undefined)
          filters.push({
            ...target,
            match_type: date ? 'on_or_after' : 'larger_or_equal',
            values: [{ value: value['from'] }],
          });
        if (value['to'] !== undefined)
          filters.push({
            ...target,
            match_type: date ? 'on_or_before' : 'smaller_or_equal',
            values: [{ value: value['to'] }],
          });
      } else return bad(req, `filter ${key} takes a list of ids or {from, to}`);
    }
    const resolved = resolveFilters(app, filters, {
      today: clock.now().toISOString().slice(0, 10),
      activeProfileId: account.actingUser().profile_id,
    });
    if (resolved._tag === 'Left') return bad(req, `filters: ${resolved.left.message}`);
    const sortBy = body['sort_by'];
    const sort =
      sortBy === undefined
        ? undefined
        : app.fields.find((f) => String(f.field_id) === String(sortBy) || f.external_id === sortBy);
    if (sortBy !== undefined && !sort) return bad(req, `sort_by "${String(sortBy)}" is no field of app ${app.app_id}`);
    return itemsPage(req, app, {
      filters: resolved.right,
      ...(sort ? { sort } : {}),
      sortDesc: body['sort_desc'] === true,
      ...paging,
    });
  });

  // Filter by a saved view (podio-php PodioItem::filter_by_view): the view's own filters and sort apply.
  route('POST', '/item/app/:app_id/filter/:view_id/', async (req) => {
    const problem = checkBody(req, ['sort_by', 'sort_desc', 'limit', 'offset', 'remember'], []);
    if (problem) return bad(req, problem);
    const body = req.body as Json;
    const paging = pageOf(body);
    if (typeof paging === 'string') return bad(req, paging);
    const app = await appOf(Number(req.params['app_id']));
    const found = await store.getView(Number(req.params['view_id']))();
    if (!app || found._tag === 'Left' || found.right.app_id !== app.app_id)
      return { status: 404, body: podioError('not_found', 'Object not found', req) };
    const view = found.right.view;
    const resolved = resolveFilters(app, view.filters as FilterInput[], {
      today: clock.now().toISOString().slice(0, 10),
      activeProfileId: account.actingUser().profile_id,
    });
    if (resolved._tag === 'Left') return bad(req, `view filters: ${resolved.left.message}`);
    const sort = view.sort_by
      ? app.fields.find((f) => String(f.field_id) === view.sort_by || f.external_id === view.sort_by)
      : undefined;
    return itemsPage(req, app, {
      filters: resolved.right,
      ...(sort ? { sort } : {}),
      sortDesc: view.sort_desc ?? false,
      ...paging,
    });
  });
};
