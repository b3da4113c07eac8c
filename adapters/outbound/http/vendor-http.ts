import { createRequire } from 'node:module';
import type { Span } from '@opentelemetry/api';
import type { AxiosAdapter, AxiosError, AxiosInstance, AxiosStatic, InternalAxiosRequestConfig } from 'axios';
import { rateLimited, upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { recordUpstreamCall } from './upstream-calls.js';
import { currentToolSpan, endVendorSpan, vendorSpan, withVendorSpan, type ToolSpanScope } from './vendor-spans.js';
import type { DayZone } from './quota.js';
import {
  breakerRetryAfterSeconds,
  isBrokenCircuit,
  isIdempotentRequest,
  NEVER_SENT,
  QuotaReserved,
  resilientAdapter,
  type Resilience,
} from './resilience.js';

let axiosModule: AxiosStatic | undefined;
/**
 * axios, loaded when the first vendor client is made rather than with the gateway (memory mode makes none):
 * its CommonJS build for Node, one file, which loads faster than the ESM tree. Only this module uses axios
 * at run time; the rest of the gateway imports its types.
 */
const loadAxios = (): AxiosStatic => (axiosModule ??= createRequire(import.meta.url)('axios') as AxiosStatic);

export interface VendorHttpOptions {
  readonly vendor: string;
  readonly baseURL: string;
  readonly timeoutMs: number;
  readonly headers?: Record<string, string>;
  /** The zone the vendor's daily quota is counted in (HubSpot: the account's), when it has one. */
  readonly day?: DayZone;
  /** Retries and breaker settings (the gateway's, from the environment); without them, the fallback's. */
  readonly resilience?: Resilience;
}

/** What the attempts of one vendor call moved: attempts made, body bytes received and sent. */
interface Measured {
  attempts: number;
  bytes: number;
  bytesSent: number;
}

/** The size of a body as axios's adapter hands it over: a string, bytes, or a stream (its Content-Length). */
const sizeOf = (data: unknown, contentLength?: unknown): number => {
  if (typeof data === 'string') return Buffer.byteLength(data);
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return data.byteLength;
  const declared = Number(contentLength);
  return Number.isFinite(declared) && declared > 0 ? declared : 0;
};

/** The transport adapter, counting each attempt and the bytes it moved (below the retries). */
const measuringAdapter =
  (base: AxiosAdapter, measured: WeakMap<object, Measured>): AxiosAdapter =>
  async (config) => {
    let seen = measured.get(config);
    if (!seen) measured.set(config, (seen = { attempts: 0, bytes: 0, bytesSent: 0 }));
    seen.attempts += 1;
    seen.bytesSent += sizeOf(config.data, config.headers?.['Content-Length']);
    const response = await base(config);
    seen.bytes += sizeOf(response.data, (response.headers as Record<string, unknown> | undefined)?.['content-length']);
    return response;
  };

/**
 * An axios instance for one vendor: JSON in and out, a time limit, and no exception for HTTP error
 * statuses (every adapter maps statuses to domain errors itself).
 */
export const createVendorHttp = (o: VendorHttpOptions): AxiosInstance => {
  const axios = loadAxios();
  const http = axios.create({
    baseURL: o.baseURL,
    timeout: o.timeoutMs,
    headers: { Accept: 'application/json', ...(o.headers ?? {}) },
    validateStatus: () => true,
    maxRedirects: 0,
  });
  // Each attempt's bytes are counted below the retries (the answer as it came, before JSON parsing), and so
  // are the attempts, for the call's record and its span.
  const measured = new WeakMap<object, Measured>();
  const resilient = resilientAdapter(
    o.vendor,
    measuringAdapter(axios.getAdapter(http.defaults.adapter), measured),
    o.day,
    o.resilience,
  );
  // Every vendor call is recorded for the request's log line, the upstream metrics and usage, and is a
  // child span of its tool call's span when tracing is on (vendor-spans.ts); its attempts run with that
  // span active in OpenTelemetry's context.
  const started = new WeakMap<object, number>();
  const spans = new WeakMap<object, { readonly span: Span; readonly parent: ToolSpanScope }>();
  http.defaults.adapter = (config) => {
    const traced = spans.get(config);
    return traced ? withVendorSpan(traced.parent, traced.span, () => resilient(config)) : resilient(config);
  };
  http.interceptors.request.use((config) => {
    started.set(config, performance.now());
    const parent = currentToolSpan();
    if (parent) spans.set(config, { span: vendorSpan(parent, o.vendor, config), parent });
    return config;
  });
  const record = (config: InternalAxiosRequestConfig | undefined, status: number, error?: AxiosError) => {
    const seen = config ? measured.get(config) : undefined;
    recordUpstreamCall({
      vendor: o.vendor,
      method: (config?.method ?? 'get').toUpperCase(),
      status,
      ms: config && started.has(config) ? Math.round(performance.now() - started.get(config)!) : 0,
      bytes: seen?.bytes ?? 0,
      bytesSent: seen?.bytesSent ?? 0,
    });
    const span = config ? spans.get(config)?.span : undefined;
    if (span) endVendorSpan(span, status, Math.max(0, (seen?.attempts ?? 1) - 1), error);
  };
  http.interceptors.response.use(
    (response) => {
      record(response.config, response.status);
      return response;
    },
    (error: AxiosError) => {
      record(error.config, error.response?.status ?? 0, error);
      return Promise.reject(error);
    },
  );
  return http;
};

/**
 * Connection failures that happen before any answer: refused, unresolved, or reset (`ECONNRESET`, which is
 * also axios's code for "socket hang up") or broken (`EPIPE`). A timeout is not one of them: the vendor may
 * still be working on the request, and a second wait would pass the call's deadline.
 */
const BEFORE_ANSWER = new Set(['ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);
const unanswered = new WeakSet<GatewayError>();

/** Whether an error is transportFailure's for a connection that failed before any answer came. */
export const failedBeforeAnswer = (error: GatewayError): boolean => unanswered.has(error);

/** A request that never got an HTTP answer: a timeout or a refused or reset connection, or an open breaker. */
export const transportFailure = (vendor: string, error: unknown): GatewayError => {
  const failure = transportError(vendor, error);
  if (BEFORE_ANSWER.has((error as AxiosError)?.code ?? '')) unanswered.add(failure);
  return failure;
};

const transportError = (vendor: string, error: unknown): GatewayError => {
  if (error instanceof QuotaReserved) return rateLimited(error.message, error.retryAfterSeconds);
  if (isBrokenCircuit(error)) {
    const seconds = breakerRetryAfterSeconds(error);
    return upstreamFailure(
      vendor,
      `${vendor} has been failing, so the gateway stopped calling it for a while. Try again in ${seconds} s.`,
      { retryable: true, retryAfterSeconds: seconds },
    );
  }
  const e = error as AxiosError;
  if (e?.code === 'ECONNABORTED' || e?.code === 'ETIMEDOUT') {
    return upstreamFailure(
      vendor,
      `${vendor} did not answer in time. Retrying is safe for reads; for writes, check first whether the change was made.`,
      {
        retryable: true,
      },
    );
  }
  // Only a connection that was refused or never resolved is sure to have carried nothing. Any other failure
  // (a reset or broken pipe, axios's "socket hang up") may come after the vendor read the request: a write
  // may have been made, and repeating it could make it twice (issue 42).
  if (!NEVER_SENT.has(e?.code ?? '') && e?.config && !isIdempotentRequest(e.config)) {
    return upstreamFailure(
      vendor,
      `${vendor} closed the connection (${e.code ?? 'network error'}) after the request was sent, without answering: ` +
        'the change may have been made; check first whether the change was made before repeating it.',
      { retryable: false },
    );
  }
  return upstreamFailure(vendor, `${vendor} could not be reached (${e?.code ?? 'network error'}). Try again shortly.`, {
    retryable: true,
  });
};

export { MAX_RETRY_AFTER_SECONDS, retryAfterSeconds } from './retry-after.js';
