import { AsyncLocalStorage } from 'node:async_hooks';
import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';
import type { Span, Tracer } from '@opentelemetry/api';

let apiModule: typeof OtelApi | undefined;
/** The OpenTelemetry API, loaded when the first span is made (never with tracing off). */
const otel = (): typeof OtelApi =>
  (apiModule ??= createRequire(import.meta.url)('@opentelemetry/api') as typeof OtelApi);

// The child spans of a tool call's span: one per vendor HTTP call (issue 32). The tool call's span is put in
// scope by the tracing observer (adapters/outbound/observability/tracing.ts) and read here by the vendor
// HTTP client (vendor-http.ts). With tracing off nothing is ever put in scope: the scope is not even made,
// and a vendor call costs one undefined check.

/** The tool call a vendor call is made for: its span, and the tracer its children are made with. */
export interface ToolSpanScope {
  readonly tracer: Tracer;
  readonly span: Span;
}

let scope: AsyncLocalStorage<ToolSpanScope> | undefined;

/** Runs `work` with `tool` as the parent of the vendor calls it makes. */
export const runInToolSpan = <A>(tool: ToolSpanScope, work: () => Promise<A>): Promise<A> =>
  (scope ??= new AsyncLocalStorage()).run(tool, work);

/** The tool call whose work is running, when tracing is on. */
export const currentToolSpan = (): ToolSpanScope | undefined => scope?.getStore();

/** A path segment that names a resource rather than an id: letters, `-`, `_`, `.`, or a version (`v3`). */
const NAMED_SEGMENT = /^(?:[A-Za-z_.-]{1,48}|v\d{1,2})$/;
/** An OData key segment, `Items(fi0123)`: the entity set's name is kept, the key is not. */
const KEY_SEGMENT = /^([A-Za-z_]{1,48})\(.*\)$/;

/**
 * A request path as a route template, `GET /crm/v3/objects/contacts/{id}`: the query is dropped and every
 * segment that is not a plain name (ids, emails, numbers, encoded values) becomes `{id}`, so spans group by
 * route and carry no caller data.
 */
export const routeTemplate = (url: string | undefined): string => {
  const path = (url ?? '/').split(/[?#]/, 1)[0] ?? '/';
  const local = /^[a-z][a-z0-9+.-]*:\/\//i.test(path) ? path.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') : path;
  const segments = local.split('/').slice(0, 32);
  return (
    segments
      .map((segment) => {
        if (segment === '' || NAMED_SEGMENT.test(segment)) return segment;
        const key = KEY_SEGMENT.exec(segment);
        return key ? `${key[1]}({id})` : '{id}';
      })
      .join('/') || '/'
  );
};

/** HTTP client span attributes (OpenTelemetry semantic conventions) and the gateway's vendor name. */
export const vendorSpan = (
  parent: ToolSpanScope,
  vendor: string,
  config: { readonly method?: string; readonly url?: string; readonly baseURL?: string },
): Span => {
  const { ROOT_CONTEXT, SpanKind, trace } = otel();
  const method = (config.method ?? 'get').toUpperCase();
  const template = routeTemplate(config.url);
  let host: string | undefined;
  try {
    host = new URL(config.url ?? '', config.baseURL).hostname;
  } catch {
    host = undefined;
  }
  return parent.tracer.startSpan(
    `${method} ${template}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'http.request.method': method,
        'url.template': template,
        'gateway.vendor': vendor,
        ...(host ? { 'server.address': host } : {}),
      },
    },
    trace.setSpan(ROOT_CONTEXT, parent.span),
  );
};

/** Ends a vendor call's span: its status (0: no answer), the retries made, and what failed. */
export const endVendorSpan = (
  span: Span,
  status: number,
  retries: number,
  error?: { readonly code?: string },
): void => {
  if (status > 0) span.setAttribute('http.response.status_code', status);
  if (retries > 0) span.setAttribute('http.request.resend_count', retries);
  if (status === 0 || status >= 400) {
    const type = status > 0 ? String(status) : (error?.code ?? 'network_error');
    span.setAttribute('error.type', type);
    span.setStatus({ code: otel().SpanStatusCode.ERROR });
  }
  span.end();
};
