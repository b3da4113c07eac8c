import type { GatewayError } from '../../domain/shared/errors.js';

export type ErrorCode =
  | 'INVALID_PARAMETER'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'INTERNAL_ERROR'
  | 'UPSTREAM_ERROR'
  | 'METHOD_NOT_ALLOWED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'TIMEOUT'
  /** 408: the request body was still arriving when its time was up (GATEWAY_BODY_TIMEOUT_MS); the connection is closed. */
  | 'REQUEST_TIMEOUT'
  /** 503: a store the call needs (the idempotency records) is down; retry after details.retry_after_seconds. */
  | 'UNAVAILABLE'
  /** 422: a document (a file, a fetched page) is past a reading bound: too deep, too large unpacked, too slow. */
  | 'DOCUMENT_TOO_COMPLEX'
  /** 428: a Destructive call needs a confirm_token (GATEWAY_CONFIRM_DESTRUCTIVE); details carry the preview and the token. */
  | 'CONFIRMATION_REQUIRED'
  /**
   * 428: a person must approve the call. The executor answers it as AwaitingApproval, not as an error; only the
   * MCP Apps approval card's answer carries this code on the wire (mcp-approval.ts approvalCardAnswer).
   */
  | 'APPROVAL_REQUIRED'
  /** 403: the person asked to approve the call declined (or cancelled); nothing was changed. */
  | 'APPROVAL_DECLINED'
  /** 403: the tenant requires a person's approval and this client cannot ask one. */
  | 'HUMAN_APPROVAL_REQUIRED'
  /** 400: the state of a person's approval (MCP requestState) is not valid for this call, expired, or used. */
  | 'INVALID_APPROVAL'
  /** 409: the tenant has no usable connection to the tool's vendor; details.connect_url is where a person connects it. */
  | 'NOT_CONNECTED';

/** An error as every surface reports it: the envelope's code, message and details, with its HTTP status. */
export interface ToolError {
  readonly status: number;
  readonly code: ErrorCode;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

export const toolError = (
  status: number,
  code: ErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): ToolError => ({
  status,
  code,
  message,
  details,
});

export const invalidParameter = (
  message: string,
  parameter: string,
  expected: string,
  extra: Record<string, unknown> = {},
): ToolError => toolError(400, 'INVALID_PARAMETER', message, { parameter, expected, ...extra });

/** Maps the domain's expected failures onto the envelope. */
export const fromGatewayError = (e: GatewayError): ToolError => {
  switch (e._tag) {
    case 'InvalidInput':
      return toolError(400, 'INVALID_PARAMETER', e.message, {
        ...(e.parameter !== undefined ? { parameter: e.parameter } : {}),
        ...(e.expected !== undefined ? { expected: e.expected } : {}),
        ...(e.details ?? {}),
      });
    case 'NotFound':
      return toolError(404, 'NOT_FOUND', e.message, { resource: e.resource, id: e.id });
    case 'Conflict':
      return toolError(409, 'CONFLICT', e.message, { ...(e.details ?? {}) });
    case 'Forbidden':
      return toolError(403, 'FORBIDDEN', e.message, { ...(e.details ?? {}) });
    case 'RateLimited':
      return toolError(429, 'RATE_LIMITED', e.message, { retry_after_seconds: e.retryAfterSeconds });
    case 'UpstreamFailure':
      return toolError(502, 'UPSTREAM_ERROR', e.message, {
        vendor: e.vendor,
        retryable: e.retryable,
        ...(e.reauthorize ? { reauthorize: true } : {}),
        ...(e.status !== undefined ? { upstream_status: e.status } : {}),
        ...(e.retryAfterSeconds !== undefined ? { retry_after_seconds: e.retryAfterSeconds } : {}),
      });
    case 'NotConnected':
      return toolError(409, 'NOT_CONNECTED', e.message, {
        vendor: e.vendor,
        connect_url: e.connectUrl,
        connection_status: e.status,
      });
    case 'Unavailable':
      return toolError(503, 'UNAVAILABLE', e.message, { retryable: true, retry_after_seconds: e.retryAfterSeconds });
    case 'TooComplex':
      return toolError(422, 'DOCUMENT_TOO_COMPLEX', e.message, { limit: e.limit, retryable: false });
  }
};
