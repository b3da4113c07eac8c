import { invalidInput, upstreamFailure } from '../../../domain/shared/errors.js';
import { E } from '../../../domain/shared/fp.js';
import type { VendorConnector } from '../../../ports/vendor-connector.js';
import { createVendorHttp, transportFailure } from '../http/vendor-http.js';
import { bodyStatusCode } from './batchdata-errors.js';
import type { Resilience } from '../http/resilience.js';

const VENDOR = 'BatchData';

/**
 * The key check's probe: BatchData's own published non-US example (help.batchdata.io, "SkipTrace API Release
 * Notes – November 2025", V1 single request). BatchData answers it 200 with `meta.matched: false` and does
 * not bill it (billing counts matched items, `matchCount`: developer.batchdata.com), so a valid body that
 * costs nothing. An empty `requests` list is not used: BatchData refuses it with 400, and no BatchData document
 * says whether the token is checked before the body, so that 400 proves nothing about the key.
 */
const PROBE = {
  requests: [{ propertyAddress: { street: '145 Adelaide St W', city: 'Toronto', state: 'ON', zip: 'M5H 4' } }],
};

/**
 * Connects BatchData by API key, checked with one skip trace of the probe. The answer is read the way the
 * skip tracer reads it (batchdata-skip-tracer.ts): the HTTP status, then the body's `status.code`, which can
 * say 401 inside an HTTP 200. Only a 200 whose body says 200 saves the key.
 */
export const batchDataConnector = (o: {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  readonly resilience?: Resilience;
}): VendorConnector => {
  const baseURL = o.baseUrl
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/api\/v1$/, '');
  const http = createVendorHttp({ vendor: VENDOR, baseURL, timeoutMs: o.timeoutMs, resilience: o.resilience });
  return {
    vendor: 'batchdata',
    label: VENDOR,
    checkKey: async (key) => {
      let status: number;
      let data: unknown;
      try {
        const res = await http.post('/api/v1/property/skip-trace', PROBE, {
          headers: { Authorization: `Bearer ${key.trim()}`, 'Content-Type': 'application/json' },
        });
        status = res.status;
        data = res.data;
      } catch (error) {
        return E.left(transportFailure(VENDOR, error));
      }
      const inBody = bodyStatusCode(data);
      const code = status >= 200 && status < 300 ? (inBody ?? 0) : status;
      const said = saidIn(data)?.split(key.trim()).join('[redacted]');
      // BatchData's documented statuses (help.batchdata.io "Status Codes in HTTP"): 401 the credentials are
      // not valid; 403 the operation is not allowed (a token carries per-endpoint permissions); 400 the
      // request body is not valid.
      if (code === 401 || code === 403)
        return E.left(
          invalidInput(
            code === 401
              ? `BatchData refused this API key (${said ?? 'HTTP 401'}); nothing was saved.`
              : `BatchData accepted this API key but does not allow it property skip trace (${said ?? 'HTTP 403'}); nothing was saved. Give the token the Skip Trace permission in BatchData's API Tokens page.`,
            'key',
            'a BatchData API key allowed to use property skip trace',
          ),
        );
      if (code === 429 || code >= 500)
        return E.left(
          upstreamFailure(
            VENDOR,
            `BatchData could not check the key (HTTP ${code}); nothing was saved. Try again shortly.`,
            { retryable: true, status: code },
          ),
        );
      if (code !== 200)
        return E.left(
          upstreamFailure(
            VENDOR,
            `BatchData answered the key check with ${code === 0 ? 'an answer without a status' : `status ${code}`}${said ? ` (${said})` : ''}, which does not show whether the key works; nothing was saved.`,
            { retryable: false, ...(code ? { status: code } : {}) },
          ),
        );
      return E.right({
        secret: { apiKey: key.trim() },
        label: `BatchData API key ending ${key.trim().slice(-4)}`,
        details: {},
      });
    },
  };
};

/** BatchData's own words in an answer's `status`, short. */
const saidIn = (data: unknown): string | undefined => {
  const status = (data as { status?: { message?: unknown; text?: unknown } } | null)?.status;
  const said = typeof status?.message === 'string' ? status.message : status?.text;
  return typeof said === 'string' && said.trim() ? said.trim().slice(0, 200) : undefined;
};
