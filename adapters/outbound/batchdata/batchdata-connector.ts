import { invalidInput, upstreamFailure } from '../../../domain/shared/errors.js';
import { E } from '../../../domain/shared/fp.js';
import type { VendorConnector } from '../../../ports/vendor-connector.js';
import { createVendorHttp, transportFailure } from '../http/vendor-http.js';

const VENDOR = 'BatchData';

/**
 * Connects BatchData by API key. BatchData has no free "who am I" call, so the check sends a skip trace
 * with no items: BatchData refuses the body (400) for a key it accepts, and answers 401 or 403 for one it
 * does not. Nothing is looked up and nothing is charged.
 */
export const batchDataConnector = (o: { readonly baseUrl: string; readonly timeoutMs: number }): VendorConnector => {
  const baseURL = o.baseUrl
    .trim()
    .replace(/\/+$/, '')
    .replace(/\/api\/v1$/, '');
  const http = createVendorHttp({ vendor: VENDOR, baseURL, timeoutMs: o.timeoutMs });
  return {
    vendor: 'batchdata',
    label: VENDOR,
    checkKey: async (key) => {
      let status: number;
      try {
        const res = await http.post(
          '/api/v1/property/skip-trace',
          { requests: [] },
          { headers: { Authorization: `Bearer ${key.trim()}`, 'Content-Type': 'application/json' } },
        );
        status = res.status;
      } catch (error) {
        return E.left(transportFailure(VENDOR, error));
      }
      if (status === 401 || status === 403)
        return E.left(
          invalidInput(
            `BatchData refused this API key (HTTP ${status}); nothing was saved.`,
            'key',
            'a BatchData API key BatchData accepts',
          ),
        );
      if (status === 429 || status >= 500)
        return E.left(
          upstreamFailure(
            VENDOR,
            `BatchData could not check the key (HTTP ${status}); nothing was saved. Try again shortly.`,
            {
              retryable: true,
              status,
            },
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
