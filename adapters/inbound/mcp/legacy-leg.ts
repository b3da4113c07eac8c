import {
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpHandlerRequestOptions,
  type McpRequestContext,
  type Server,
} from '@modelcontextprotocol/server';
import {
  ELICITING_SESSION,
  elicitingSessionId,
  isPostedResponse,
  type PendingAnswers,
  RelayTransport,
} from './legacy-relay.js';

// The 2025-era leg: a fresh server per POST on the SDK's stateless transport with JSON answers (the SDK's
// own fallback always answers SSE, which cost 2025 clients their plain JSON answers). A client that
// declares elicitation at initialize is given a session id that says so (nothing is stored: any instance
// reads it); its tools/call exchanges then answer as a stream, so that a gated call can send
// `elicitation/create` on it and wait for the person's answer (legacy-relay.ts).

export interface LegacyLegOptions {
  readonly pending: PendingAnswers;
  /** How long an exchange waits for a person's answer. */
  readonly waitMs: number;
  /** Whose exchange this is (tenant and principal): an answer is accepted only from the same caller. */
  readonly ownerOf: (authInfo: AuthInfo) => string;
}

type LegacyFactory = (ctx: McpRequestContext, legacyElicits: boolean) => Server;

const declaresElicitation = (body: unknown): boolean => {
  const params = (body as { method?: unknown; params?: { capabilities?: { elicitation?: unknown } } } | null)?.params;
  return (body as { method?: unknown } | null)?.method === 'initialize' && !!params?.capabilities?.elicitation;
};

export const legacyLeg =
  (factory: LegacyFactory, options: LegacyLegOptions) =>
  async (request: Request, opts: McpHandlerRequestOptions & { authInfo: AuthInfo }): Promise<Response> => {
    const body = opts.parsedBody;
    const owner = options.ownerOf(opts.authInfo);
    // A client's answer to an elicitation an exchange of this process is waiting for.
    if (isPostedResponse(body) && options.pending.answer(body, owner)) return new Response(null, { status: 202 });
    const elicits = request.headers.get('mcp-session-id')?.startsWith(ELICITING_SESSION) ?? false;
    const streamed = elicits && (body as { method?: unknown } | null)?.method === 'tools/call';
    const server = factory({ era: 'legacy', authInfo: opts.authInfo, requestInfo: request }, elicits);
    const inner = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !streamed,
    });
    if (!streamed) {
      await server.connect(inner);
      let response: Response;
      try {
        response = await inner.handleRequest(request, opts);
      } finally {
        await server.close();
      }
      if (declaresElicitation(body) && response.ok) response.headers.set('mcp-session-id', elicitingSessionId());
      return response;
    }
    // The answer is a stream that outlives this function: the server closes once the call is answered.
    const close = () => void server.close().catch(() => undefined);
    const relay = new RelayTransport(inner, options.pending, owner, options.waitMs + 5_000, () =>
      queueMicrotask(close),
    );
    await server.connect(relay);
    try {
      const response = await inner.handleRequest(request, opts);
      // Refused before dispatch (a malformed message, a wrong protocol version header): nothing runs on.
      if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) close();
      return response;
    } catch (error) {
      close();
      throw error;
    }
  };
