import { InMemoryPodioAccount } from '../../adapters/outbound/memory/in-memory-podio-account.js';
import { InMemoryRecords } from '../../adapters/outbound/memory/in-memory-records.js';
import { seedDemoRecords } from '../../adapters/outbound/memory/demo/records.js';
import { valueTypeOf, type App, type AppView, type FieldDefinition } from '../../domain/records/app.js';
import { validateFields } from '../../domain/records/field-input.js';
import { resolveFilters, type FilterInput } from '../../domain/records/filters.js';
import type { RecordData } from '../../domain/records/record.js';
import type { Comment, WriteFlags } from '../../domain/records/revision.js';
import type {
  CategoryValue,
  ContactValue,
  DateValue,
  FieldValue,
  FileValue,
  LinkValue,
  MoneyValue,
  RelationValue,
  TypedValue,
} from '../../domain/records/values.js';
import type { Clock } from '../../ports/clock.js';
import {
  answerWith,
  podioError,
  refuse,
  type PodioReply,
  type PodioRouteRequest,
  type PodioServer,
} from './podio-server.js';

// Podio's app, view, item, filter, revision, reference, find, comment and file endpoints (vendors.md 2.2) on
// the local stand-in, answering in Podio's shapes from an in-memory records store with the demo apps.
// Paths, query parameters, body members and field value formats are checked; anything else is recorded
// in the server's violations.

type Json = Record<string, unknown>;

const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u);
const isId = (u: unknown) => Number.isSafeInteger(u) && (u as number) > 0;
const list = (u: unknown): unknown[] => (Array.isArray(u) ? u : [u]);

/** Our field_type as Podio's field `type` and `config.settings`. */
export const podioFieldType = (f: FieldDefinition): { type: string; settings: Json } => {
  switch (f.field_type) {
    case 'single_text':
      return { type: 'text', settings: { size: 'small' } };
    case 'multi_text':
      return { type: 'text', settings: { size: 'large' } };
    case 'single_category':
    case 'multi_category':
      return {
        type: 'category',
        settings: {
          multiple: f.field_type === 'multi_category',
          options: (f.options ?? []).map((o) => ({
            id: o.id,
            text: o.text,
            color: o.color ?? 'DCEBD8',
            status: 'active',
          })),
        },
      };
    case 'single_date':
    case 'range_date':
      return {
        type: 'date',
        settings: { calendar: true, end: f.field_type === 'range_date' ? 'enabled' : 'disabled', time: 'enabled' },
      };
    case 'single_relation':
    case 'multi_relation':
      return {
        type: 'app',
        settings: {
          multiple: f.field_type === 'multi_relation',
          referenced_apps: (f.referenced_app_ids ?? []).map((app_id) => ({ app_id })),
        },
      };
    case 'single_user':
    case 'multi_user':
      return { type: 'contact', settings: { type: 'space_users', multiple: f.field_type === 'multi_user' } };
    case 'multi_email':
      return { type: 'email', settings: {} };
    case 'multi_phone':
      return { type: 'phone', settings: {} };
    case 'multi_link':
      return { type: 'embed', settings: {} };
    case 'single_location':
      return { type: 'location', settings: {} };
    case 'money':
      return { type: 'money', settings: { allowed_currencies: f.currencies ?? ['USD'] } };
    case 'multi_image':
      return { type: 'image', settings: {} };
    default:
      return { type: f.field_type, settings: {} };
  }
};

const podioField = (f: FieldDefinition): Json => {
  const { type, settings } = podioFieldType(f);
  return {
    field_id: f.field_id,
    external_id: f.external_id,
    type,
    status: 'active',
    label: f.label,
    config: { label: f.label, description: f.description ?? null, required: f.required, delta: 0, settings },
  };
};

export const podioApp = (app: App): Json => ({
  app_id: app.app_id,
  space_id: app.space_id,
  status: 'active',
  config: { name: app.name, item_name: app.item_name, description: app.description, icon: app.icon },
  fields: app.fields.map(podioField),
});

const time = (s: string) => s.slice(11, 19);

/** A field value as Podio's `values` list. */
const podioValues = (f: FieldDefinition, v: FieldValue): Json[] => {
  switch (valueTypeOf(f.field_type)) {
    case 'text':
    case 'location':
      return [{ value: v as string }];
    case 'number':
    case 'calculation':
      return [{ value: (v as number).toFixed(4) }];
    case 'money':
      return [{ value: Number((v as MoneyValue).value).toFixed(4), currency: (v as MoneyValue).currency }];
    case 'category':
    case 'status':
      return (v as readonly CategoryValue[]).map((c) => ({
        value: {
          id: c.id,
          text: c.text,
          status: 'active',
          color: f.options?.find((o) => o.id === c.id)?.color ?? 'DCEBD8',
        },
      }));
    case 'date': {
      const d = v as DateValue;
      return [
        {
          start: d.start,
          start_date: d.start.slice(0, 10),
          start_time: time(d.start),
          ...(d.end
            ? { end: d.end, end_date: d.end.slice(0, 10), end_time: time(d.end) }
            : { end: null, end_date: null, end_time: null }),
        },
      ];
    }
    case 'app':
      return (v as readonly RelationValue[]).map((r) => ({
        value: { item_id: r.record_id, title: r.title, app: { app_id: r.app_id } },
      }));
    case 'contact':
      return (v as readonly ContactValue[]).map((c) => ({
        value: { profile_id: c.profile_id, user_id: c.user_id, name: c.name, type: 'user' },
      }));
    case 'email':
    case 'phone':
      return (v as readonly TypedValue[]).map((t) => ({ type: t.type, value: t.value }));
    case 'embed':
      return (v as readonly LinkValue[]).map((l) => ({ embed: { url: l.url, original_url: l.url, title: l.title } }));
    case 'file':
      return (v as readonly FileValue[]).map((file) => ({
        value: { file_id: file.file_id, name: file.name, mimetype: file.mimetype, size: file.size },
      }));
    default:
      return [];
  }
};

const byline = (u: { user_id: number; name: string; profile_id?: number }) => ({
  type: 'user',
  id: u.user_id,
  user_id: u.user_id,
  name: u.name,
  avatar: null,
});

export const podioItem = (app: App, r: RecordData): Json => ({
  item_id: r.record_id,
  app_item_id: r.app_record_id,
  external_id: null,
  title: r.title,
  link: `https://podio.com/acme/acquisitions/apps/${app.app_id}/items/${r.app_record_id}`,
  app: { app_id: app.app_id, name: app.name, item_name: app.item_name, icon: app.icon },
  created_by: byline(r.created_by),
  created_via: { id: 1, name: 'Podio' },
  created_on: r.created_on_utc,
  last_event_on: r.last_modified_on_utc,
  initial_revision: { revision: 0, created_by: byline(r.created_by), created_on: r.created_on_utc },
  current_revision: {
    revision: r.revision,
    created_by: byline(r.last_modified_by),
    created_on: r.last_modified_on_utc,
  },
  fields: app.fields.flatMap((f) => {
    const v = r.values[f.field_id];
    return v === undefined ? [] : [{ ...podioField(f), values: podioValues(f, v) }];
  }),
  comment_count: 0,
  file_count: 0,
  tags: [],
});

/** A Podio write value of one field in our createRecord input format, or a problem. */
const fromPodioValue = (f: FieldDefinition, raw: unknown): { value: unknown } | { problem: string } => {
  const at = `field ${f.field_id} (${podioFieldType(f).type})`;
  if (Array.isArray(raw) && raw.length === 0) return { value: null };
  switch (valueTypeOf(f.field_type)) {
    case 'text':
    case 'location':
      return typeof raw === 'string' ? { value: raw } : { problem: `${at} takes a string` };
    case 'number':
      return typeof raw === 'number' || (typeof raw === 'string' && raw.trim() !== '')
        ? { value: raw }
        : { problem: `${at} takes a number` };
    case 'category':
    case 'status':
    case 'app':
    case 'contact':
    case 'file':
      return list(raw).every(isId) ? { value: list(raw) } : { problem: `${at} takes ids` };
    case 'money':
      return isObject(raw) && Object.keys(raw).every((k) => k === 'value' || k === 'currency')
        ? { value: raw }
        : { problem: `${at} takes {value, currency}` };
    case 'date': {
      if (
        !isObject(raw) ||
        typeof raw['start'] !== 'string' ||
        Object.keys(raw).some((k) => k !== 'start' && k !== 'end')
      )
        return { problem: `${at} takes {start, end}` };
      return {
        value: f.field_type === 'single_date' ? raw['start'] : { start: raw['start'], end: raw['end'] ?? null },
      };
    }
    case 'email':
    case 'phone': {
      const member = valueTypeOf(f.field_type);
      const items = list(raw);
      if (
        !items.every(
          (i) =>
            isObject(i) && typeof i['value'] === 'string' && Object.keys(i).every((k) => k === 'type' || k === 'value'),
        )
      )
        return { problem: `${at} takes [{type, value}]` };
      return { value: items.map((i) => ({ type: (i as Json)['type'], [member]: (i as Json)['value'] })) };
    }
    case 'embed': {
      const items = list(raw);
      if (!items.every((i) => isObject(i) && isObject(i['embed']) && typeof i['embed']['url'] === 'string'))
        return { problem: `${at} takes [{embed: {url}}]` };
      return {
        value: items.map((i) => ({ url: ((i as Json)['embed'] as Json)['url'], title: (i as Json)['title'] ?? '' })),
      };
    }
    default:
      return { value: raw };
  }
};

/** A view of ours in Podio's shape: `filters: [{key, values}]` (id lists or {from, to}). */
const podioView = (app: App, v: AppView): Json => ({
  view_id: v.view_id,
  name: v.name,
  type: 'standard',
  sort_by: v.sort_by
    ? String(app.fields.find((f) => f.external_id === v.sort_by)?.field_id ?? v.sort_by)
    : 'created_on',
  sort_desc: v.sort_desc ?? false,
  filters: (v.filters as FilterInput[]).map((f) => {
    const field = app.fields.find((x) => String(x.field_id) === String(f.field_id) || x.external_id === f.field_id)!;
    const ids = (f.values ?? []).map((x) => Number(x.value));
    const values =
      f.match_type === 'incomplete' ? (field.options ?? []).filter((o) => !o.means_completed).map((o) => o.id) : ids;
    return { key: field.field_id, values };
  }),
});

interface MultipartPart {
  readonly name: string;
  readonly filename?: string;
  readonly contentType?: string;
  readonly data: Buffer;
}

const parseMultipart = (contentType: string, bytes: Buffer): MultipartPart[] | undefined => {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: MultipartPart[] = [];
  let at = bytes.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (bytes.subarray(start, start + 2).toString() === '--') return parts;
    const next = bytes.indexOf(delimiter, start);
    if (next < 0) return undefined;
    const part = bytes.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) return undefined;
    const head = part.subarray(0, split).toString('utf8');
    const disposition = /content-disposition: form-data; name="([^"]*)"(?:; filename="([^"]*)")?/i.exec(head);
    if (!disposition) return undefined;
    const type = /content-type: (.+)/i.exec(head);
    parts.push({
      name: disposition[1]!,
      ...(disposition[2] !== undefined ? { filename: disposition[2] } : {}),
      ...(type ? { contentType: type[1]!.trim() } : {}),
      data: part.subarray(split + 4),
    });
    at = next;
  }
  return undefined;
};

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
  const comments = store.commentsPort();

  const run = answerWith;
  const bad = (req: PodioRouteRequest, problem: string): PodioReply => refuse(server, req, problem);
  const checkQuery = (req: PodioRouteRequest, allowed: readonly string[]): string | undefined => {
    for (const [k, v] of Object.entries(req.query)) {
      if (!allowed.includes(k)) return `unknown query parameter "${k}"`;
      if (['hook', 'silent', 'alert_invite'].includes(k) && v !== 'true' && v !== 'false')
        return `${k} must be true or false`;
    }
    return undefined;
  };
  const checkBody = (
    req: PodioRouteRequest,
    allowed: readonly string[],
    required: readonly string[],
  ): string | undefined => {
    if (!isObject(req.body)) return 'the body must be a JSON object';
    const unknown = Object.keys(req.body).find((k) => !allowed.includes(k));
    if (unknown) return `unknown member "${unknown}"`;
    const missing = required.find((k) => !(k in (req.body as Json)));
    return missing ? `"${missing}" is required` : undefined;
  };
  const flags = (req: PodioRouteRequest): WriteFlags => ({
    silent: req.query['silent'] === 'true',
    hook: req.query['hook'] !== 'false',
    workflow: true,
  });
  const appOf = async (appId: number): Promise<App | undefined> => {
    const r = await store.getApp(appId)();
    return r._tag === 'Right' ? r.right : undefined;
  };
  const itemReply = async (r: RecordData): Promise<PodioReply> => ({
    status: 200,
    body: podioItem((await appOf(r.app_id))!, r),
  });
  const writeInput = (req: PodioRouteRequest, app: App): { fields: Json } | { problem: string } => {
    const fields = (req.body as Json)['fields'];
    if (!isObject(fields)) return { problem: '"fields" must be an object keyed by field_id or external_id' };
    const out: Json = {};
    for (const [key, raw] of Object.entries(fields)) {
      const f = app.fields.find((x) => String(x.field_id) === key || x.external_id === key);
      if (!f) return { problem: `no field ${key} in app ${app.app_id}` };
      const v = fromPodioValue(f, raw);
      if ('problem' in v) return v;
      out[key] = v.value;
    }
    return { fields: out };
  };
  const route = (method: string, path: string, handler: (req: PodioRouteRequest) => Promise<PodioReply>) =>
    server.route(method, path, handler);
  const itemId = (req: PodioRouteRequest) => Number(req.params['item_id']);

  route('GET', '/user/profile/', async () => {
    const u = account.actingUser();
    return { status: 200, body: { profile_id: u.profile_id, user_id: u.user_id, name: u.name, mail: [u.mail] } };
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
  route('GET', '/app/', async (req) =>
    run(req, store.listApps(), (apps) => ({ status: 200, body: apps.map(appSummary) })),
  );
  route('GET', '/app/space/:space_id/', async (req) =>
    run(req, store.listApps(Number(req.params['space_id'])), (apps) => ({ status: 200, body: apps.map(appSummary) })),
  );
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

  route('POST', '/item/app/:app_id/filter/', async (req) => {
    const problem = checkBody(req, ['sort_by', 'sort_desc', 'filters', 'limit', 'offset', 'remember'], []);
    if (problem) return bad(req, problem);
    const body = req.body as Json;
    const limit = body['limit'] ?? 30;
    const offset = body['offset'] ?? 0;
    if (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > 500)
      return bad(req, 'limit must be an integer from 1 to 500');
    if (!Number.isSafeInteger(offset) || (offset as number) < 0)
      return bad(req, 'offset must be a non-negative integer');
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
    const all = await store.query(app, { filters: [], sortDesc: false, offset: 0, limit: 1, countOnly: true })();
    return run(
      req,
      store.query(app, {
        filters: resolved.right,
        ...(sort ? { sort } : {}),
        sortDesc: body['sort_desc'] === true,
        offset: offset as number,
        limit: limit as number,
        countOnly: false,
      }),
      (page) => ({
        status: 200,
        body: {
          total: all._tag === 'Right' ? all.right.total : 0,
          filtered: page.total,
          items: page.records.map((r) => podioItem(app, r)),
        },
      }),
    );
  });

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

  route('POST', '/file/', async (req) => {
    const body = req.body as { multipart?: string; bytes?: Buffer } | undefined;
    if (!body?.multipart || !body.bytes)
      return bad(req, 'POST /file/ takes multipart/form-data with the file in "source" and a "filename" field');
    const parts = parseMultipart(body.multipart, body.bytes);
    const source = parts?.find((p) => p.name === 'source' && p.filename !== undefined);
    const filename = parts?.find((p) => p.name === 'filename' && p.filename === undefined)?.data.toString('utf8');
    if (!parts || !source || !filename)
      return bad(req, 'POST /file/ needs a "source" file part and a "filename" field');
    const unknown = parts.find((p) => p.name !== 'source' && p.name !== 'filename');
    if (unknown) return bad(req, `unknown multipart member "${unknown.name}"`);
    return run(
      req,
      store.uploadFile({
        name: filename,
        mimetype: source.contentType ?? 'application/octet-stream',
        content: source.data,
      }),
      (f) => ({
        status: 200,
        body: {
          file_id: f.file_id,
          name: f.name,
          mimetype: f.mimetype,
          size: f.size,
          link: `https://files.podio.com/${f.file_id}`,
          hosted_by: 'podio',
        },
      }),
    );
  });

  route('DELETE', '/file/:file_id', async (req) =>
    run(req, store.deleteFile(Number(req.params['file_id'])), () => ({ status: 204 })),
  );

  const podioComment = (c: Comment): Json => ({
    comment_id: c.comment_id,
    value: c.value,
    rich_value: c.value,
    external_id: null,
    ref: { type: 'item', id: c.ref.id },
    created_by: {
      type: 'user',
      id: c.created_by.user_id,
      user_id: c.created_by.user_id,
      name: c.created_by.name,
      mail: c.created_by.mail,
      org_id: c.created_by.org_id,
    },
    created_via: { id: 1, name: 'Podio' },
    created_on: c.created_on,
    files: c.files.map((f) => ({ file_id: f.file_id, name: f.name, mimetype: f.mimetype, size: f.size })),
    embed: null,
    like_count: 0,
    is_liked: false,
    last_edit_on: null,
  });

  route('POST', '/comment/item/:item_id/', async (req) => {
    const problem =
      checkQuery(req, ['alert_invite', 'hook', 'silent']) ??
      checkBody(req, ['value', 'external_id', 'file_ids', 'embed_id', 'embed_url'], ['value']);
    if (problem) return bad(req, problem);
    const body = req.body as Json;
    if (
      typeof body['value'] !== 'string' ||
      (body['file_ids'] !== undefined && !(Array.isArray(body['file_ids']) && body['file_ids'].every(isId)))
    )
      return bad(req, 'value must be a string and file_ids a list of ids');
    return run(
      req,
      comments.create(itemId(req), body['value'], (body['file_ids'] as number[] | undefined) ?? [], flags(req)),
      (c) => ({ status: 200, body: { comment_id: c.comment_id, granted_users: [] } }),
    );
  });
  route('GET', '/comment/:comment_id', async (req) =>
    run(req, comments.get(Number(req.params['comment_id'])), (c) => ({ status: 200, body: podioComment(c) })),
  );
  route('GET', '/comment/item/:item_id/', async (req) => {
    const problem = checkQuery(req, ['limit', 'offset']);
    if (problem) return bad(req, problem);
    return run(
      req,
      comments.list(itemId(req), Number(req.query['offset'] ?? 0), Number(req.query['limit'] ?? 100)),
      (page) => ({ status: 200, body: page.comments.map(podioComment) }),
    );
  });
  route('DELETE', '/comment/:comment_id', async (req) => {
    const problem = checkQuery(req, ['hook', 'silent']);
    if (problem) return bad(req, problem);
    return run(req, comments.delete(Number(req.params['comment_id']), flags(req)), () => ({ status: 204 }));
  });

  return { store };
};
