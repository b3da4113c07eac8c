import type { InMemoryPodioAccount } from '../../../adapters/outbound/memory/in-memory-podio-account.js';
import type { InMemoryRecords } from '../../../adapters/outbound/memory/in-memory-records.js';
import type { App } from '../../../domain/records/app.js';
import type { RecordData } from '../../../domain/records/record.js';
import type { WriteFlags } from '../../../domain/records/revision.js';
import type { Clock } from '../../../ports/clock.js';
import type { RecordComments } from '../../../ports/record-comments.js';
import { refuse, type PodioReply, type PodioRouteRequest, type PodioServer } from '../podio-server.js';
import { podioItem } from './podio-shapes.js';
import { fromPodioValue, isObject } from './podio-write-values.js';

// What the Podio records routes share: the in-memory store behind them, and the checks of query strings,
// bodies and field values that record a departure from Podio's documentation in the server's violations.

type Json = Record<string, unknown>;

export type ItemsContext = ReturnType<typeof itemsContext>;

export const itemsContext = (
  server: PodioServer,
  clock: Clock,
  account: InMemoryPodioAccount,
  store: InMemoryRecords,
  comments: RecordComments,
) => {
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
  /** Embeds made by `POST /embed/`, by id: the stand-in's links are written as `{embed: embed_id}`. */
  const embeds = new Map<number, { url: string; title: string }>();
  const writeInput = (req: PodioRouteRequest, app: App): { fields: Json } | { problem: string } => {
    const fields = (req.body as Json)['fields'];
    if (!isObject(fields)) return { problem: '"fields" must be an object keyed by field_id or external_id' };
    const out: Json = {};
    for (const [key, raw] of Object.entries(fields)) {
      const f = app.fields.find((x) => String(x.field_id) === key || x.external_id === key);
      if (!f) return { problem: `no field ${key} in app ${app.app_id}` };
      const v = fromPodioValue(f, raw, embeds);
      if ('problem' in v) return v;
      out[key] = v.value;
    }
    return { fields: out };
  };
  const route = (method: string, path: string, handler: (req: PodioRouteRequest) => Promise<PodioReply>) =>
    server.route(method, path, handler);
  const itemId = (req: PodioRouteRequest) => Number(req.params['item_id']);

  return {
    clock,
    account,
    store,
    comments,
    bad,
    checkQuery,
    checkBody,
    flags,
    appOf,
    itemReply,
    writeInput,
    embeds,
    route,
    itemId,
  };
};
