import type { IncomingMessage, ServerResponse } from 'node:http';
import { readCappedFrom } from './body-reader.js';
import { queryOptionsOf, rawHeader, requestIdFrom } from './call-request.js';
import {
  createToolCalls,
  internalErrorAnswer,
  toolCallRoutes,
  type CallAnswer,
  type ResolveTarget,
  type ToolCallDeps,
} from './tool-calls.js';

// The common request, a tool call, straight from Node's request to Node's response: no WHATWG Request,
// Headers or Response objects and no router. Everything else (other methods and paths, odd spellings of
// a tool path, the listing, /docs, /mcp, the data plane) goes to the Hono app. The steps of a call are
// the same functions the Hono routes use (tool-calls.ts), so both give the same answer.

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface FastPathDeps extends ToolCallDeps {
  readonly onInternalError?: (error: unknown, requestId: string) => void;
}

const write = (res: ServerResponse, a: CallAnswer): void => {
  if (res.headersSent || res.destroyed) return;
  // writeHead sends the head at once, so the length is stated here (otherwise the body goes chunked).
  res.writeHead(a.status, { ...a.headers, 'content-length': String(Buffer.byteLength(a.body)) });
  res.end(a.body);
};

/** A Node request listener that answers tool calls itself and hands every other request to `fallback`. */
export const withToolCallFastPath = (deps: FastPathDeps, fallback: NodeListener): NodeListener => {
  const calls = createToolCalls(deps);
  const routes = toolCallRoutes(deps.executor.registry);
  const call = async (req: IncomingMessage, res: ServerResponse, url: string, path: string, resolve: ResolveTarget) => {
    const raw = req.rawHeaders;
    const requestId = requestIdFrom(rawHeader(raw, 'x-request-id'));
    try {
      const answer = await calls.handle(
        {
          path,
          header: (name) => rawHeader(raw, name),
          options: () => queryOptionsOf(url),
          body: (limit) =>
            readCappedFrom({ incoming: req, outgoing: res, contentLength: rawHeader(raw, 'content-length') }, limit),
        },
        requestId,
        resolve,
      );
      write(res, answer);
    } catch (error) {
      deps.onInternalError?.(error, requestId);
      write(res, internalErrorAnswer(requestId));
    }
  };

  return (req, res) => {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const resolve = req.method === 'POST' ? routes.get(path) : undefined;
    if (!resolve) return fallback(req, res);
    void call(req, res, url, path, resolve);
  };
};
