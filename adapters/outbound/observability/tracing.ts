import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type * as OtelAsyncHooks from '@opentelemetry/context-async-hooks';
import type * as OtelCore from '@opentelemetry/core';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type * as OtlpProto from '@opentelemetry/exporter-trace-otlp-proto';
import type * as OtelResources from '@opentelemetry/resources';
import type * as OtelTraceBase from '@opentelemetry/sdk-trace-base';
import {
  observedStatus,
  type CallObserver,
  type ObservedCall,
  type ObservedOutcome,
  type TraceCarrier,
} from '../../../ports/call-observer.js';
import { currentToolSpan, enableVendorSpans, toolSpanContext } from '../http/vendor-spans.js';

// OpenTelemetry tracing (issues 32, 39). Per call on a surface, a SERVER span for the request (REST: the HTTP
// route; MCP: `tools/call <tool>`) continuing the caller's trace (the HTTP `traceparent` header, or MCP's
// `_meta`), an INTERNAL `execute_tool <tool>` child (the GenAI conventions), and under it a CLIENT span per
// vendor HTTP call (adapters/outbound/http/vendor-spans.ts). Spans are parented through OpenTelemetry's own
// context: the AsyncLocalStorage context manager is registered when tracing starts and the call runs in
// `context.with`. Exported over OTLP/HTTP as the standard OTEL_* variables say; off unless they ask for it,
// and then the SDK is never loaded and no call does any tracing work.

export type OtlpProtocol = 'http/protobuf' | 'http/json';

/**
 * The standard OpenTelemetry variables the gateway honours (docs/operations.md "Tracing"): read here, by the
 * OTLP exporter, the batch span processor and the sampler. They are the specification's, so they are not
 * in docs/configuration.md with the gateway's own.
 */
export const TRACING_VARIABLES: readonly string[] = [
  'OTEL_SDK_DISABLED',
  'OTEL_TRACES_EXPORTER',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
  ...['', 'TRACES_'].flatMap((signal) =>
    ['ENDPOINT', 'PROTOCOL', 'HEADERS', 'TIMEOUT', 'COMPRESSION'].map((v) => `OTEL_EXPORTER_OTLP_${signal}${v}`),
  ),
  ...['SCHEDULE_DELAY', 'EXPORT_TIMEOUT', 'MAX_QUEUE_SIZE', 'MAX_EXPORT_BATCH_SIZE'].map((v) => `OTEL_BSP_${v}`),
];

export interface TracingSettings {
  /** The OTLP/HTTP traces endpoint (`…/v1/traces`); the exporter's default when undefined. */
  readonly url?: string;
  readonly protocol: OtlpProtocol;
  /** Spans are also written to standard output (`OTEL_TRACES_EXPORTER=console`). */
  readonly console: boolean;
  readonly otlp: boolean;
  readonly serviceName: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/** The traces endpoint the OTLP variables name: the signal's own as it is, or the base one plus `/v1/traces`. */
const tracesUrl = (env: Env): string | undefined => {
  const own = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (own) return own;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
};

/**
 * What the standard variables ask for: undefined (tracing off) unless `OTEL_TRACES_EXPORTER` names `otlp` or
 * `console`, or an OTLP endpoint is set and `OTEL_TRACES_EXPORTER` is not `none`; `OTEL_SDK_DISABLED=true`
 * turns it off. A problem (an unsupported protocol or exporter) is thrown as a message naming the variable.
 */
export const tracingSettings = (env: Env): TracingSettings | undefined => {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return undefined;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  if (exporters.includes('none')) return undefined;
  const unknown = exporters.filter((e) => e !== 'otlp' && e !== 'console');
  if (unknown.length > 0)
    throw new Error(`OTEL_TRACES_EXPORTER must list otlp, console or none; got "${unknown.join(', ')}".`);
  const url = tracesUrl(env);
  const otlp = exporters.includes('otlp') || (exporters.length === 0 && url !== undefined);
  const console = exporters.includes('console');
  if (!otlp && !console) return undefined;
  const protocolVariable = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim()
    ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'
    : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const protocol = env[protocolVariable]?.trim() || 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json')
    throw new Error(`${protocolVariable} must be http/protobuf or http/json (OTLP over HTTP); got "${protocol}".`);
  return { url, protocol, console, otlp, serviceName: env.OTEL_SERVICE_NAME?.trim() || 'tool-gateway' };
};

const require = createRequire(import.meta.url);

/** The longest trace headers read: a traceparent is 55 characters; W3C caps tracestate at 512. */
const MAX_TRACEPARENT = 128;
const MAX_TRACESTATE = 512;

/** The tracer provider of a gateway: wraps the call observer, and flushes its spans on close. */
export interface GatewayTracing {
  observer(inner: CallObserver): CallObserver;
  /** Sends the spans still buffered (tests, and shutdown). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Registers OpenTelemetry's AsyncLocalStorage context manager, once per process. Where the process already
 * has one (an application embedding the gateway that runs its own SDK), that one is kept and used.
 */
const registerContextManager = (api: typeof OtelApi): void => {
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks') as typeof OtelAsyncHooks;
  const manager = new AsyncLocalStorageContextManager().enable();
  if (!api.context.setGlobalContextManager(manager)) manager.disable();
};

/** Starts the OpenTelemetry SDK (loaded here, not with the gateway) with the settings' exporters. */
export const startTracing = (settings: TracingSettings, serviceVersion: string): GatewayTracing => {
  const api = require('@opentelemetry/api') as typeof OtelApi;
  registerContextManager(api);
  enableVendorSpans(api);
  const core = require('@opentelemetry/core') as typeof OtelCore;
  const base = require('@opentelemetry/sdk-trace-base') as typeof OtelTraceBase;
  const resources = require('@opentelemetry/resources') as typeof OtelResources;
  const processors: OtelTraceBase.SpanProcessor[] = [];
  if (settings.otlp) {
    const { OTLPTraceExporter } = (
      settings.protocol === 'http/json'
        ? require('@opentelemetry/exporter-trace-otlp-http')
        : require('@opentelemetry/exporter-trace-otlp-proto')
    ) as typeof OtlpHttp | typeof OtlpProto;
    processors.push(new base.BatchSpanProcessor(new OTLPTraceExporter(settings.url ? { url: settings.url } : {})));
  }
  if (settings.console) processors.push(new base.SimpleSpanProcessor(new base.ConsoleSpanExporter()));
  const resource = resources
    .detectResources({ detectors: [resources.envDetector] })
    .merge(
      resources.resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': serviceVersion }),
    );
  // The gateway's spans are kept whatever the caller's `traceparent` flags say (a caller that does not sample
  // must not switch off the gateway's record of its calls): always on, the caller's trace still continued.
  // An operator's OTEL_TRACES_SAMPLER (ratio, parent-based...) is honoured as the SDK reads it.
  const sampler = process.env['OTEL_TRACES_SAMPLER'] ? {} : { sampler: new base.AlwaysOnSampler() };
  const provider = new base.BasicTracerProvider({ resource, spanProcessors: processors, ...sampler });
  const tracer = provider.getTracer('tool-gateway', serviceVersion);
  const propagator = new core.W3CTraceContextPropagator();
  // The caller's trace when it sent one; else whatever is active (an embedding application's span, or none).
  const parentOf = (carrier: TraceCarrier | undefined): OtelApi.Context => {
    const headers: Record<string, string> = {};
    if (carrier?.traceparent && carrier.traceparent.length <= MAX_TRACEPARENT)
      headers.traceparent = carrier.traceparent;
    else return api.context.active();
    if (carrier.tracestate && carrier.tracestate.length <= MAX_TRACESTATE) headers.tracestate = carrier.tracestate;
    return propagator.extract(api.ROOT_CONTEXT, headers, api.defaultTextMapGetter);
  };
  return {
    observer: (inner) => new TracingCallObserver(inner, tracer, parentOf, api),
    flush: () => provider.forceFlush(),
    close: () => provider.shutdown(),
  };
};

type Outcome = ObservedOutcome;

/** The REST route of a call: the tool-call form's path, or the tool's own `/v1/tools/{group}/{name}`. */
const restRoute = (call: ObservedCall): string =>
  call.surface === 'tool-call'
    ? '/v1/tools/call'
    : `/v1/tools/${call.group}/${call.tool.startsWith(`${call.group}_`) ? call.tool.slice(call.group.length + 1) : call.tool}`;

/** The request span of a call that came in on a surface (none for an embedded call or one inside another). */
const requestSpanOf = (call: ObservedCall): { readonly name: string; readonly attributes: Attributes } | undefined => {
  if (call.surface === 'mcp') {
    const mcp = call.trace?.mcp;
    return {
      name: `tools/call ${call.tool}`,
      attributes: {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': call.tool,
        ...(mcp?.sessionId ? { 'mcp.session.id': mcp.sessionId } : {}),
        ...(mcp?.protocolVersion ? { 'mcp.protocol.version': mcp.protocolVersion } : {}),
        ...(mcp?.requestId !== undefined ? { 'jsonrpc.request.id': String(mcp.requestId) } : {}),
        'network.protocol.name': 'http',
      },
    };
  }
  if (call.surface === 'rest' || call.surface === 'tool-call') {
    const route = restRoute(call);
    return {
      name: `POST ${route}`,
      attributes: { 'http.request.method': 'POST', 'http.route': route, 'url.path': route },
    };
  }
  return undefined;
};

/**
 * Around the inner observer (logs and metrics): the request's SERVER span (see requestSpanOf), its parent the
 * caller's trace context when one came with the call, and under it the INTERNAL `execute_tool <tool>` span
 * with the GenAI conventions' attributes and the gateway's (tenant, group, surface, outcome). The call runs
 * with the tool span active in OpenTelemetry's context, where the vendor calls find it.
 */
export class TracingCallObserver implements CallObserver {
  constructor(
    private readonly inner: CallObserver,
    private readonly tracer: Tracer,
    private readonly parentOf: (carrier: TraceCarrier | undefined) => OtelApi.Context,
    private readonly api: typeof OtelApi,
  ) {}

  observe<R extends Outcome>(call: ObservedCall, run: () => Promise<R>): Promise<R> {
    const { SpanKind, trace } = this.api;
    // A call made inside another tool call (a meta tool's) is that call's child, with no request span.
    const nested = currentToolSpan() !== undefined;
    const parent = nested ? this.api.context.active() : this.parentOf(call.trace);
    const request = nested ? undefined : requestSpanOf(call);
    const server = request
      ? this.tracer.startSpan(request.name, { kind: SpanKind.SERVER, attributes: request.attributes }, parent)
      : undefined;
    const toolParent = server ? trace.setSpan(parent, server) : parent;
    const span = this.tracer.startSpan(
      `execute_tool ${call.tool}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': call.tool,
          'gen_ai.tool.call.id': call.requestId,
          'gateway.tool.group': call.group,
          'gateway.tenant': call.tenant,
          'gateway.surface': call.surface ?? 'embedded',
          'gateway.request_id': call.requestId,
          ...(call.surface === 'mcp' ? { 'mcp.method.name': 'tools/call' } : {}),
        },
      },
      toolParent,
    );
    const scope = toolSpanContext(toolParent, span, this.tracer);
    return this.inner
      .observe(call, () => this.api.context.with(scope, run))
      .then(
        (result) => {
          const status = this.end(span, result);
          if (server) this.endServer(server, call, status);
          return result;
        },
        (error: unknown) => {
          for (const s of server ? [span, server] : [span]) {
            s.setAttribute('error.type', error instanceof Error ? error.name : 'exception');
            s.setStatus({ code: this.api.SpanStatusCode.ERROR });
          }
          span.setAttribute('gateway.outcome', 'failed');
          span.end();
          server?.end();
          throw error;
        },
      );
  }

  /** Ends the tool span with the call's outcome; answers the HTTP status the call was given. */
  private end(span: Span, result: Outcome): number {
    const replayed = (result as { readonly meta?: { readonly replayed?: boolean } }).meta?.replayed === true;
    const { status, code } = observedStatus(result);
    const outcome = replayed ? 'replayed' : result.ok ? 'ok' : status >= 500 ? 'failed' : 'refused';
    span.setAttribute('gateway.outcome', outcome);
    span.setAttribute('gateway.status', status);
    if (!result.ok) {
      span.setAttribute('error.type', code ?? 'error');
      if (status >= 500) span.setStatus({ code: this.api.SpanStatusCode.ERROR });
    }
    span.end();
    return status;
  }

  /** Ends the request span: HTTP's status code on REST; on MCP a tool's failure is a result, not an error. */
  private endServer(server: Span, call: ObservedCall, status: number): void {
    if (call.surface !== 'mcp') {
      server.setAttribute('http.response.status_code', status);
      if (status >= 500) {
        server.setAttribute('error.type', String(status));
        server.setStatus({ code: this.api.SpanStatusCode.ERROR });
      }
    }
    server.end();
  }
}
