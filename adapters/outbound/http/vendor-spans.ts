import type * as OtelApi from '@opentelemetry/api';
import type { Context, Span, Tracer } from '@opentelemetry/api';

// The child spans of a tool call's span: one per vendor HTTP call (issue 32), parented through
// OpenTelemetry's own context (issue 39): the tracing observer (adapters/outbound/observability/tracing.ts)
// runs the call with `context.with`, its span active and the tracer it was made with under a context key;
// the vendor HTTP client (vendor-http.ts) reads the active context here and runs the request with the vendor
// span active, so standard instrumentation (undici, pg, ioredis) nests under it too. With tracing off the
// API is never loaded: `enableVendorSpans` is never called and a vendor call costs one undefined check.

/** The OpenTelemetry API and the context key of the gateway's tracer, once tracing has started. */
let otel: { readonly api: typeof OtelApi; readonly tracerKey: symbol } | undefined;

/** Called by the tracing set-up with the API it loaded: from then on vendor calls look for a tool span. */
export const enableVendorSpans = (api: typeof OtelApi): void => {
  otel ??= { api, tracerKey: api.createContextKey('tool-gateway tracer') };
};

/** `context` with `span` active and `tracer` as the one its vendor calls' spans are made with. */
export const toolSpanContext = (context: Context, span: Span, tracer: Tracer): Context => {
  if (!otel) throw new Error('enableVendorSpans must be called before a tool span is made');
  return otel.api.trace.setSpan(context, span).setValue(otel.tracerKey, tracer);
};

/** The tool call a vendor call is made for: the active context, with its span and the gateway's tracer. */
export interface ToolSpanScope {
  readonly tracer: Tracer;
  readonly context: Context;
}

/** The tool call whose work is running (from OpenTelemetry's active context), when tracing is on. */
export const currentToolSpan = (): ToolSpanScope | undefined => {
  if (!otel) return undefined;
  const context = otel.api.context.active();
  const tracer = context.getValue(otel.tracerKey) as Tracer | undefined;
  return tracer ? { tracer, context } : undefined;
};

/** Runs `work` with `span` (a vendor call's) active, so what the HTTP client does underneath nests under it. */
export const withVendorSpan = <A>(parent: ToolSpanScope, span: Span, work: () => Promise<A>): Promise<A> =>
  otel ? otel.api.context.with(otel.api.trace.setSpan(parent.context, span), work) : work();

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
  const { SpanKind } = otel!.api;
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
    parent.context,
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
    span.setStatus({ code: otel!.api.SpanStatusCode.ERROR });
  }
  span.end();
};
