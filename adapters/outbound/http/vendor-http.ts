import { createRequire } from 'node:module';
import type { AxiosError, AxiosInstance, AxiosStatic } from 'axios';
import { rateLimited, upstreamFailure, type GatewayError } from '../../../domain/shared/errors.js';
import { recordUpstreamCall } from './upstream-calls.js';
import type { DayZone } from './quota.js';
import { breakerRetryAfterSeconds, isBrokenCircuit, QuotaReserved, resilientAdapter } from './resilience.js';

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
}

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
  http.defaults.adapter = resilientAdapter(o.vendor, axios.getAdapter(http.defaults.adapter), o.day);
  // Every vendor call is recorded for the request's log line and the upstream metrics.
  const started = new WeakMap<object, number>();
  http.interceptors.request.use((config) => {
    started.set(config, performance.now());
    return config;
  });
  const record = (config: { method?: string } | undefined, status: number) =>
    recordUpstreamCall({
      vendor: o.vendor,
      method: (config?.method ?? 'get').toUpperCase(),
      status,
      ms: config && started.has(config) ? Math.round(performance.now() - started.get(config)!) : 0,
    });
  http.interceptors.response.use(
    (response) => {
      record(response.config, response.status);
      return response;
    },
    (error: AxiosError) => {
      record(error.config, error.response?.status ?? 0);
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
    const seconds = breakerRetryAfterSeconds();
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
  return upstreamFailure(vendor, `${vendor} could not be reached (${e?.code ?? 'network error'}). Try again shortly.`, {
    retryable: true,
  });
};

/** Seconds from a Retry-After header (delta seconds or HTTP date), or undefined. */
/** The longest wait a vendor's Retry-After is believed for (a day): a date years away is a vendor's mistake. */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

export const retryAfterSeconds = (header: unknown, now: Date = new Date()): number | undefined => {
  if (typeof header !== 'string' || !header.trim() || header.length > 64) return undefined;
  if (/^\d+$/.test(header.trim())) return Math.min(MAX_RETRY_AFTER_SECONDS, Number(header.trim()));
  const at = Date.parse(header);
  return Number.isNaN(at)
    ? undefined
    : Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(0, Math.ceil((at - now.getTime()) / 1000)));
};
