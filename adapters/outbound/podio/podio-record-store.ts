import * as t from 'io-ts';
import { isFieldType, valueTypeOf, type App, type AppSummary, type AppView, type CategoryOption, type FieldDefinition, type FieldType } from '../../../domain/records/app.js';
import type { FieldInput, ValidatedFields } from '../../../domain/records/field-input.js';
import { compileFilters, sortRecords, type ResolvedFilter } from '../../../domain/records/filters.js';
import type { RecordData, UserRef } from '../../../domain/records/record.js';
import type { Comment, FieldDelta, PersonRef, Revision, WriteFlags } from '../../../domain/records/revision.js';
import type { FieldValue, FileValue } from '../../../domain/records/values.js';
import { invalidInput, type GatewayError } from '../../../domain/shared/errors.js';
import { E, pipe, TE, type Either, type TaskEither } from '../../../domain/shared/fp.js';
import type { RecordApps } from '../../../ports/record-apps.js';
import type { CommentPage, RecordComments } from '../../../ports/record-comments.js';
import type { NewFile, RecordPage, RecordQuery, RecordStore } from '../../../ports/record-store.js';
import type { PodioClient, PodioQuery } from './podio-client.js';
import { multipartBody } from './podio-records-multipart.js';

// Records on Podio (vendors.md 2.2). Podio's item, app, revision and comment answers are read loosely
// (t.UnknownRecord, then typed accessors) and turned into the domain's shapes here; nothing of Podio's
// body is passed through. Filters Podio evaluates itself (categories, relations, users, numbers, money,
// dates, created_on) are sent as Podio filters; the rest (text, email, phone...) are applied by the
// gateway over the items Podio returns, reading at most MAX_SCAN items.

type Json = Record<string, unknown>;
const Obj = t.UnknownRecord;
const List = t.array(t.UnknownRecord);

const MAX_SCAN = 5000;
const PAGE = 500;

const num = (u: unknown): number | undefined => (typeof u === 'number' ? u : typeof u === 'string' && /^-?\d+(\.\d+)?$/.test(u) ? Number(u) : undefined);
const str = (u: unknown): string | undefined => (typeof u === 'string' ? u : undefined);
const obj = (u: unknown): Json => (typeof u === 'object' && u !== null && !Array.isArray(u) ? (u as Json) : {});
const arr = (u: unknown): Json[] => (Array.isArray(u) ? (u.filter((x) => typeof x === 'object' && x !== null) as Json[]) : []);

/** Podio's field `type` + config to our field_type. */
const fieldTypeOf = (f: Json): FieldType => {
  const type = str(f['type']) ?? '';
  const settings = obj(obj(f['config'])['settings']);
  switch (type) {
    case 'text':
      return settings['size'] === 'large' ? 'multi_text' : 'single_text';
    case 'number':
    case 'progress':
    case 'duration':
      return 'number';
    case 'category':
      return settings['multiple'] ? 'multi_category' : 'single_category';
    case 'date':
      return settings['end'] === 'disabled' ? 'single_date' : 'range_date';
    case 'app':
      return settings['multiple'] === false ? 'single_relation' : 'multi_relation';
    case 'contact':
      return settings['type'] === 'space_users' && settings['multiple'] === false ? 'single_user' : 'multi_user';
    case 'email':
      return 'multi_email';
    case 'phone':
      return 'multi_phone';
    case 'embed':
      return 'multi_link';
    case 'location':
      return 'single_location';
    case 'money':
      return 'money';
    case 'image':
      return 'multi_image';
    case 'calculation':
      return 'calculation';
    case 'tag':
      return 'multi_category';
    default:
      return isFieldType(type) ? type : 'attachment';
  }
};

export const toApp = (a: Json): App => {
  const config = obj(a['config']);
  return {
    app_id: num(a['app_id']) ?? 0,
    space_id: num(a['space_id']) ?? 0,
    name: str(config['name']) ?? str(a['name']) ?? '',
    item_name: str(config['item_name']) ?? 'Item',
    description: str(config['description']) ?? '',
    icon: str(config['icon']) ?? '',
    fields: arr(a['fields'])
      .filter((f) => str(f['status']) !== 'deleted')
      .map((f): FieldDefinition => {
        const fc = obj(f['config']);
        const settings = obj(fc['settings']);
        const field_type = fieldTypeOf(f);
        const options = arr(settings['options'])
          .filter((o) => str(o['status']) !== 'deleted')
          .map((o): CategoryOption => ({ id: num(o['id']) ?? 0, text: str(o['text']) ?? '', ...(str(o['color']) ? { color: str(o['color'])! } : {}) }));
        return {
          field_id: num(f['field_id']) ?? 0,
          external_id: str(f['external_id']) ?? String(f['field_id']),
          label: str(fc['label']) ?? str(f['label']) ?? '',
          field_type,
          required: fc['required'] === true,
          ...(str(fc['description']) ? { description: str(fc['description'])! } : {}),
          ...(field_type.endsWith('category') ? { options } : {}),
          ...(field_type.endsWith('relation') ? { referenced_app_ids: (Array.isArray(settings['referenced_apps']) ? settings['referenced_apps'] : []).map((r) => num(obj(r)['app_id']) ?? 0) } : {}),
          ...(field_type === 'money' && Array.isArray(settings['allowed_currencies']) ? { currencies: settings['allowed_currencies'].filter((c): c is string => typeof c === 'string') } : {}),
        };
      }),
  };
};

const podioTime = (s: unknown): string => (str(s) ?? '').slice(0, 19);

const userRef = (u: unknown): UserRef => {
  const x = obj(u);
  return { user_id: num(x['user_id']) ?? num(x['id']) ?? 0, name: str(x['name']) ?? '', ...(num(x['profile_id']) !== undefined ? { profile_id: num(x['profile_id'])! } : {}) };
};

const person = (u: unknown): PersonRef => {
  const x = obj(u);
  const mail = Array.isArray(x['mail']) ? x['mail'].filter((m): m is string => typeof m === 'string') : [];
  return { id: num(x['id']) ?? num(x['user_id']) ?? 0, mail, user_id: num(x['user_id']) ?? num(x['id']) ?? 0, name: str(x['name']) ?? '', org_id: num(x['org_id']) ?? null, type: 'user' };
};

/** Podio's `values` of one field to our value shape. */
export const toValue = (type: FieldType, values: Json[]): FieldValue | undefined => {
  if (values.length === 0) return undefined;
  const first = values[0]!;
  switch (valueTypeOf(type)) {
    case 'text':
    case 'location':
      return str(first['value']) ?? '';
    case 'number':
    case 'calculation':
      return num(first['value']);
    case 'money':
      return { value: String(first['value'] ?? '0'), currency: str(first['currency']) ?? 'USD' };
    case 'category':
    case 'status':
      return values.map((v) => ({ id: num(obj(v['value'])['id']) ?? 0, text: str(obj(v['value'])['text']) ?? '' }));
    case 'date':
      return { start: `${str(first['start_date']) ?? podioTime(first['start']).slice(0, 10)} ${str(first['start_time']) ?? '00:00:00'}`, end: first['end'] || first['end_date'] ? `${str(first['end_date']) ?? podioTime(first['end']).slice(0, 10)} ${str(first['end_time']) ?? '00:00:00'}` : null };
    case 'app':
      return values.map((v) => {
        const item = obj(v['value']);
        return { record_id: num(item['item_id']) ?? 0, app_id: num(obj(item['app'])['app_id']) ?? 0, title: str(item['title']) ?? '' };
      });
    case 'contact':
      return values.map((v) => {
        const p = obj(v['value']);
        return { profile_id: num(p['profile_id']) ?? 0, user_id: num(p['user_id']) ?? 0, name: str(p['name']) ?? '' };
      });
    case 'email':
    case 'phone':
      return values.map((v) => ({ type: str(v['type']) ?? 'other', value: str(v['value']) ?? '' }));
    case 'embed':
      return values.map((v) => ({ url: str(obj(v['embed'])['original_url']) ?? str(obj(v['embed'])['url']) ?? '', title: str(obj(v['embed'])['title']) ?? '' }));
    case 'file':
      return values.map((v) => {
        const f = obj(v['value']);
        return { file_id: num(f['file_id']) ?? 0, name: str(f['name']) ?? '', mimetype: str(f['mimetype']) ?? '', size: num(f['size']) ?? 0 };
      });
    default:
      return undefined;
  }
};

export const toRecord = (item: Json, app: App | undefined): RecordData => {
  const values: Record<number, FieldValue> = {};
  for (const f of arr(item['fields'])) {
    const id = num(f['field_id']) ?? 0;
    const def = app?.fields.find((x) => x.field_id === id);
    const v = toValue(def?.field_type ?? fieldTypeOf(f), arr(f['values']));
    if (v !== undefined) values[id] = v;
  }
  const current = obj(item['current_revision']);
  return {
    record_id: num(item['item_id']) ?? 0,
    app_id: num(obj(item['app'])['app_id']) ?? app?.app_id ?? 0,
    app_record_id: num(item['app_item_id']) ?? 0,
    title: str(item['title']) ?? '',
    record_url: str(item['link']) ?? '',
    created_by: userRef(item['created_by']),
    created_on: podioTime(item['created_on']),
    created_on_utc: podioTime(item['created_on']),
    last_modified_by: userRef(current['created_by'] ?? item['created_by']),
    last_modified_on: podioTime(item['last_event_on'] ?? item['created_on']),
    last_modified_on_utc: podioTime(item['last_event_on'] ?? item['created_on']),
    deleted_on: null,
    deleted_on_utc: null,
    revision: num(current['revision']) ?? 0,
    values,
  };
};

/** Our validated input to Podio's write format for one field. */
export const toPodioValue = (input: FieldInput): unknown => {
  switch (input.kind) {
    case 'clear':
      return [];
    case 'text':
    case 'location':
    case 'number':
      return input.value;
    case 'category':
      return input.option_ids;
    case 'date':
      return { start: input.start, ...(input.end ? { end: input.end } : {}) };
    case 'money':
      return { value: input.value, currency: input.currency };
    case 'relation':
      return input.record_ids;
    case 'user':
      return input.profile_ids;
    case 'attachment':
      return input.files.map((f) => ('file_id' in f ? f.file_id : 0));
    case 'email':
    case 'phone':
      return input.items;
    case 'link':
      return input.items.map((i) => ({ embed: { url: i.url }, ...(i.title ? { title: i.title } : {}) }));
    case 'checklist':
      return input.items.map((i) => ({ ...(i.id ? { id: i.id } : {}), title: i.title, completed: i.completed, description: i.description, due: i.due, assignee: i.assignee_user_id }));
  }
};

const podioFields = (fields: ValidatedFields): Json => Object.fromEntries(fields.map(({ field, input }) => [String(field.field_id), toPodioValue(input)]));

const flagQuery = (flags: WriteFlags): PodioQuery => ({ silent: flags.silent, hook: flags.hook });

/** The part of the filters Podio can evaluate, as Podio's `filters` object; the rest stays with the gateway. */
export const splitFilters = (filters: readonly ResolvedFilter[]): { podio: Json; local: ResolvedFilter[] } => {
  const podio: Json = {};
  const local: ResolvedFilter[] = [];
  for (const f of filters) {
    if (f.kind === 'system_date') {
      const key = f.which === 'created_on' ? 'created_on' : 'last_edit_on';
      if (podio[key] !== undefined || (f.match !== 'on_or_after' && f.match !== 'on_or_before')) {
        local.push(f);
        continue;
      }
      podio[key] = f.match === 'on_or_after' ? { from: f.bound.from } : { to: f.bound.to };
      continue;
    }
    const key = String(f.field.field_id);
    if (podio[key] !== undefined) {
      local.push(f);
      continue;
    }
    const t = f.type;
    if ((t === 'category' || t === 'status' || t === 'app' || t === 'contact') && (f.match === 'any' || (f.match === 'equal' && !f.field.field_type.startsWith('multi')))) podio[key] = f.ids;
    else if ((t === 'number' || t === 'money' || t === 'calculation') && ['larger_or_equal', 'smaller_or_equal', 'equal'].includes(f.match))
      podio[key] = f.match === 'larger_or_equal' ? { from: f.numbers[0] } : f.match === 'smaller_or_equal' ? { to: f.numbers[0] } : { from: f.numbers[0], to: f.numbers[0] };
    else if (t === 'date' && (f.match === 'on_or_after' || f.match === 'on_or_before' || f.match === 'equal'))
      podio[key] = f.match === 'on_or_after' ? { from: f.bound!.from.slice(0, 10) } : f.match === 'on_or_before' ? { to: f.bound!.to.slice(0, 10) } : { from: f.bound!.from.slice(0, 10), to: f.bound!.to.slice(0, 10) };
    else local.push(f);
  }
  return { podio, local };
};

/** Podio has no status with a "done" meaning (its category options carry none), so completed/incomplete cannot be answered. */
const statusRefusal = (filters: readonly ResolvedFilter[]): GatewayError | undefined => {
  const i = filters.findIndex((f) => f.kind === 'field' && (f.match === 'completed' || f.match === 'incomplete'));
  if (i < 0) return undefined;
  const f = filters[i] as Extract<ResolvedFilter, { kind: 'field' }>;
  return invalidInput(
    `match_type ${f.match} is not available with the Podio backend: Podio's category options do not say which ones mean done. Filter field ${f.field.field_id} ("${f.field.label}") by option ids instead, e.g. {"field_id":${f.field.field_id},"match_type":"any","values":[{"value":<option_id>}]} (records_getApp lists the options).`,
    `filters[${i}].match_type`,
    'any or none with option ids',
  );
};

/** A Podio view; its filters (`[{key, values}]`) become filter objects: id lists as any, {from, to} as ranges. */
export const toView = (v: Json, viewId: number): AppView => {
  const filters: unknown[] = [];
  for (const f of arr(v['filters'])) {
    const key = f['key'];
    const values = f['values'];
    const system = key === 'created_on' || key === 'last_edit_on';
    const target = system ? { field_type: key === 'created_on' ? 'created_on' : 'last_modified_on' } : { field_id: String(key) };
    if (Array.isArray(values)) filters.push({ ...target, match_type: 'any', values: values.map((value) => ({ value: typeof value === 'object' && value !== null ? (obj(value)['id'] ?? obj(value)['item_id'] ?? obj(value)['profile_id']) : value })) });
    else {
      const range = obj(values);
      const isDate = (u: unknown) => typeof u === 'string' && !/^-?\d+(\.\d+)?$/.test(u);
      if (range['from'] !== undefined) filters.push({ ...target, match_type: isDate(range['from']) ? 'on_or_after' : 'larger_or_equal', values: [{ value: range['from'] }] });
      if (range['to'] !== undefined) filters.push({ ...target, match_type: isDate(range['to']) ? 'on_or_before' : 'smaller_or_equal', values: [{ value: range['to'] }] });
    }
  }
  const sortBy = v['sort_by'];
  return {
    view_id: viewId,
    name: str(v['name']) ?? '',
    filters,
    ...(typeof sortBy === 'string' || typeof sortBy === 'number' ? { sort_by: String(sortBy) } : {}),
    sort_desc: v['sort_desc'] === true,
  };
};

export interface PodioRecordsOptions {
  readonly timeZone: string;
}

export class PodioRecords implements RecordApps, RecordStore {
  private readonly appCache = new Map<number, App>();
  private profileId: number | undefined;

  constructor(
    private readonly podio: PodioClient,
    private readonly options: PodioRecordsOptions,
  ) {}

  private call<A>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    codec: t.Type<A, unknown, unknown>,
    extra: { query?: PodioQuery; body?: unknown; raw?: { contentType: string; data: Uint8Array }; resource?: { kind: string; id: number } } = {},
  ): TaskEither<GatewayError, A> {
    return () => this.podio.request(method, path, { codec, ...extra });
  }

  activeProfileId(): TaskEither<GatewayError, number> {
    if (this.profileId !== undefined) return TE.right(this.profileId);
    return pipe(
      this.call('GET', '/user/profile/', Obj),
      TE.map((p) => (this.profileId = num(p['profile_id']) ?? 0)),
    );
  }

  // --- apps ---

  listApps(workspaceId?: number): TaskEither<GatewayError, readonly AppSummary[]> {
    return pipe(
      this.call('GET', workspaceId === undefined ? '/app/' : `/app/space/${workspaceId}/`, List, { resource: { kind: 'workspace', id: workspaceId ?? 0 } }),
      TE.map((apps) =>
        apps.map((a) => {
          const c = obj(a['config']);
          return { id: num(a['app_id']) ?? 0, name: str(c['name']) ?? '', description: str(c['description']) ?? '', workspace_id: num(a['space_id']) ?? 0, item_name: str(c['item_name']) ?? '' };
        }),
      ),
    );
  }

  getApp(appId: number): TaskEither<GatewayError, App> {
    const cached = this.appCache.get(appId);
    if (cached) return TE.right(cached);
    return pipe(
      this.call('GET', `/app/${appId}`, Obj, { resource: { kind: 'app', id: appId } }),
      TE.map((a) => {
        const app = toApp(a);
        this.appCache.set(appId, app);
        return app;
      }),
    );
  }

  getViews(appId: number): TaskEither<GatewayError, readonly AppView[]> {
    return pipe(
      this.call('GET', `/view/app/${appId}/`, List, { resource: { kind: 'app', id: appId } }),
      TE.map((views) => views.map((v) => toView(v, num(v['view_id']) ?? 0))),
    );
  }

  getView(viewId: number, appId?: number): TaskEither<GatewayError, { app_id: number; view: AppView }> {
    if (appId === undefined) return TE.left(invalidInput('With Podio a view is addressed through its app: send app_id together with view_id.', 'app_id', 'the app of the view'));
    return pipe(
      this.call('GET', `/view/app/${appId}/${viewId}`, Obj, { resource: { kind: 'view', id: viewId } }),
      TE.map((v) => ({ app_id: appId, view: toView(v, viewId) })),
    );
  }

  // --- records ---

  get(recordId: number): TaskEither<GatewayError, RecordData> {
    return pipe(
      this.call('GET', `/item/${recordId}`, Obj, { resource: { kind: 'record', id: recordId } }),
      TE.chain((item) => pipe(this.getApp(num(obj(item['app'])['app_id']) ?? 0), TE.map((app) => toRecord(item, app)))),
    );
  }

  private filterPage(app: App, podioFilters: Json, offset: number, limit: number, sort?: { by: string; desc: boolean }): TaskEither<GatewayError, { total: number; items: RecordData[] }> {
    return pipe(
      this.call('POST', `/item/app/${app.app_id}/filter/`, Obj, {
        body: { filters: podioFilters, offset, limit, ...(sort ? { sort_by: sort.by, sort_desc: sort.desc } : {}) },
        resource: { kind: 'app', id: app.app_id },
      }),
      TE.map((r) => ({ total: num(r['filtered']) ?? num(r['total']) ?? 0, items: arr(r['items']).map((i) => toRecord(i, app)) })),
    );
  }

  private scan(app: App, podioFilters: Json): TaskEither<GatewayError, RecordData[]> {
    return async () => {
      const out: RecordData[] = [];
      for (let offset = 0; offset < MAX_SCAN; offset += PAGE) {
        const page = await this.filterPage(app, podioFilters, offset, PAGE)();
        if (page._tag === 'Left') return page;
        out.push(...page.right.items);
        if (offset + PAGE >= page.right.total) return E.right(out);
      }
      return E.left(invalidInput(`These filters need the gateway to read more than ${MAX_SCAN} records of app ${app.app_id}. Add a category, relation, user, number or date filter that Podio can apply first.`, 'filters', 'narrower filters'));
    };
  }

  query(app: App, q: RecordQuery): TaskEither<GatewayError, RecordPage> {
    const refused = statusRefusal(q.filters);
    if (refused) return TE.left(refused);
    const { podio, local } = splitFilters(q.filters);
    const sort = q.sort ? { by: String(q.sort.field_id), desc: q.sortDesc } : undefined;
    if (local.length === 0)
      return pipe(
        this.filterPage(app, podio, q.offset, q.countOnly ? 1 : q.limit, sort),
        TE.map((p) => ({ total: p.total, records: q.countOnly ? [] : p.items })),
      );
    const predicate = compileFilters(local);
    return pipe(
      this.scan(app, podio),
      TE.map((all) => {
        const matched = sortRecords(all.filter(predicate), q.sort, q.sortDesc);
        return { total: matched.length, records: q.countOnly ? [] : matched.slice(q.offset, q.offset + q.limit) };
      }),
    );
  }

  matchAll(app: App, filters: readonly ResolvedFilter[]): TaskEither<GatewayError, readonly RecordData[]> {
    const refused = statusRefusal(filters);
    if (refused) return TE.left(refused);
    const { podio, local } = splitFilters(filters);
    const predicate = compileFilters(local);
    return pipe(this.scan(app, podio), TE.map((all) => all.filter(predicate)));
  }

  create(app: App, fields: ValidatedFields, flags: WriteFlags): TaskEither<GatewayError, RecordData> {
    return pipe(
      this.call('POST', `/item/app/${app.app_id}/`, Obj, { query: flagQuery(flags), body: { fields: podioFields(fields) }, resource: { kind: 'app', id: app.app_id } }),
      TE.chain((r) => this.get(num(r['item_id']) ?? 0)),
    );
  }

  update(_app: App, recordId: number, fields: ValidatedFields, flags: WriteFlags): TaskEither<GatewayError, RecordData> {
    return pipe(
      this.call('PUT', `/item/${recordId}`, t.unknown, { query: flagQuery(flags), body: { fields: podioFields(fields) }, resource: { kind: 'record', id: recordId } }),
      TE.chain(() => this.get(recordId)),
    );
  }

  delete(recordId: number, flags: WriteFlags): TaskEither<GatewayError, void> {
    return pipe(
      this.call('DELETE', `/item/${recordId}`, t.unknown, { query: flagQuery(flags), resource: { kind: 'record', id: recordId } }),
      TE.map(() => undefined),
    );
  }

  restore(recordId: number): TaskEither<GatewayError, RecordData> {
    return TE.left(
      invalidInput(
        `Record ${recordId} cannot be restored: Podio deletes items permanently and offers no undelete (records_restoreRecord works only in memory mode). Re-create it with records_createRecord; its revisions before deletion are no longer readable.`,
        'record_id',
        'not available with the Podio backend',
        { supported: false },
      ),
    );
  }

  revisions(recordId: number): TaskEither<GatewayError, readonly Revision[]> {
    return pipe(
      this.call('GET', `/item/${recordId}/revision/`, List, { resource: { kind: 'record', id: recordId } }),
      TE.map((list) =>
        list.map((r) => ({
          revision: num(r['revision']) ?? 0,
          type: num(r['revision']) === 0 ? ('creation' as const) : ('update' as const),
          created_by: person(r['created_by']),
          created_on: podioTime(r['created_on']),
          record_id: recordId,
          changes: [],
        })),
      ),
    );
  }

  revisionDelta(recordId: number, from: number, to: number): TaskEither<GatewayError, readonly FieldDelta[]> {
    return pipe(
      this.call('GET', `/item/${recordId}/revision/${from}/${to}`, List, { resource: { kind: 'record', id: recordId } }),
      TE.map((diffs) =>
        diffs.map((d) => {
          const type = fieldTypeOf(d);
          return {
            field_id: num(d['field_id']) ?? 0,
            external_id: str(d['external_id']) ?? '',
            label: str(d['label']) ?? '',
            type: valueTypeOf(type),
            from: toValue(type, arr(d['from'])) ?? null,
            to: toValue(type, arr(d['to'])) ?? null,
          };
        }),
      ),
    );
  }

  referencing(recordId: number, appId: number): TaskEither<GatewayError, readonly RecordData[]> {
    return pipe(
      this.call('GET', `/item/${recordId}/reference/`, List, { resource: { kind: 'record', id: recordId } }),
      TE.map((groups) => groups.filter((g) => num(obj(g['app'])['app_id']) === appId).flatMap((g) => arr(g['items']).map((i) => num(i['item_id']) ?? 0))),
      TE.chain((ids) => TE.sequenceSeqArray(ids.map((id) => this.get(id)))),
    );
  }

  findRelatable(fieldId: number, text: string, limit: number): TaskEither<GatewayError, readonly RecordData[]> {
    return pipe(
      this.call('GET', `/item/field/${fieldId}/find`, List, { query: { text, limit }, resource: { kind: 'field', id: fieldId } }),
      TE.map((items) => items.map((i) => toRecord({ ...i, created_on: obj(i['initial_revision'])['created_on'], created_by: obj(obj(i['initial_revision'])['user']) }, undefined))),
    );
  }

  uploadFile(file: NewFile): TaskEither<GatewayError, FileValue> {
    return pipe(
      this.call('POST', '/file/', Obj, { raw: multipartBody({ filename: file.name }, { field: 'source', name: file.name, mimetype: file.mimetype, content: file.content }) }),
      TE.map((r) => ({ file_id: num(r['file_id']) ?? 0, name: file.name, mimetype: file.mimetype, size: file.content.byteLength })),
    );
  }

  deleteFile(fileId: number): TaskEither<GatewayError, void> {
    return pipe(
      this.call('DELETE', `/file/${fileId}`, t.unknown, { resource: { kind: 'file', id: fileId } }),
      TE.map(() => undefined),
    );
  }

  // --- comments ---

  commentsPort(): RecordComments {
    const toComment = (c: Json): Comment => {
      const { id: _id, ...by } = person(c['created_by']);
      return {
        comment_id: num(c['comment_id']) ?? 0,
        created_on: podioTime(c['created_on']),
        files: arr(c['files']).map((f) => ({ file_id: num(f['file_id']) ?? 0, name: str(f['name']) ?? '', mimetype: str(f['mimetype']) ?? '', size: num(f['size']) ?? 0 })),
        ref: { type: 'record', id: num(obj(c['ref'])['id']) ?? 0 },
        value: str(c['value']) ?? '',
        user: by,
        created_by: by,
      };
    };
    return {
      create: (recordId, value, fileIds, flags) =>
        pipe(
          this.call('POST', `/comment/item/${recordId}/`, Obj, { query: { ...flagQuery(flags), alert_invite: false }, body: { value, file_ids: fileIds }, resource: { kind: 'record', id: recordId } }),
          TE.chain((r) => this.call('GET', `/comment/${num(r['comment_id']) ?? 0}`, Obj)),
          TE.map(toComment),
        ),
      get: (commentId) => pipe(this.call('GET', `/comment/${commentId}`, Obj, { resource: { kind: 'comment', id: commentId } }), TE.map(toComment)),
      list: (recordId, offset, limit): TaskEither<GatewayError, CommentPage> =>
        pipe(
          this.call('GET', `/comment/item/${recordId}/`, List, { resource: { kind: 'record', id: recordId } }),
          TE.map((all) => ({ total: all.length, comments: all.slice(offset, offset + limit).map(toComment) })),
        ),
      delete: (commentId, flags) => pipe(this.call('DELETE', `/comment/${commentId}`, t.unknown, { query: { silent: flags.silent, hook: flags.hook }, resource: { kind: 'comment', id: commentId } }), TE.map(() => undefined)),
    };
  }
}

export type { Either };
