import type { IncomingHttpHeaders } from 'node:http';

// The Podio stand-in's requests, answers and error body, shared by the server, its token endpoint and the
// routes of the records and workspaces stand-ins.

type Json = Record<string, unknown>;

export const TOKEN_PATH = '/oauth/token/v2';

export interface PodioLoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
  status: number;
}

export interface PodioIssuedToken {
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly grantType: string;
  readonly ref: { readonly type: 'user' | 'app'; readonly id: number };
  readonly expiresAt: number;
}

export interface PodioRouteRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** Who the access token belongs to. */
  readonly as: PodioIssuedToken['ref'];
}

export interface PodioReply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

export type PodioRouteHandler = (request: PodioRouteRequest) => PodioReply | Promise<PodioReply>;

/** Podio's error body, as in shared/vendor-specs/podio/examples/error.not_found.example.json. */
export const podioError = (
  error: string,
  description: string,
  request: { method: string; path: string } = { method: 'GET', path: '/' },
  parameters: Json = {},
): Json => ({
  error_parameters: parameters,
  error_detail: null,
  error_propagate: false,
  request: { url: `http://api.podio.com${request.path}`, query_string: '', method: request.method },
  error_description: description,
  error,
});
