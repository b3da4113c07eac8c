import {
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type McpHandlerRequestOptions,
  type McpRequestContext,
  type Server,
} from '@modelcontextprotocol/server';
import { ELICITING_SESSION, elicitingSessionId, isPostedResponse, RelayTransport } from './legacy-relay.js';
import { declaresUrlElicitation, urlElicitingSessionId } from './mcp-connect.js';
import { initializeDeclaresViews, viewsSessionId } from './view-capability.js';
import { RELAY_RETRY_SECONDS, type AnswerOutcome, type AwaitedAnswers } from './awaited-answers.js';

// The 2025-era leg: a fresh server per POST on the SDK's stateless transport with JSON answers (the SDK's
// own fallback always answers SSE, which cost 2025 clients their plain JSON answers). A client that
// declares elicitation at initialize is given a session id that says so (nothing is stored: any instance
// reads it); its tools/call exchanges then answer as a stream, so that a gated call can send
// `elicitation/create` on it and wait for the person's answer (legacy-relay.ts), which the client may post to
// any instance (awaited-answers.ts).

export interface LegacyLegOptions {
  /** Where exchanges await answers: this process, and with Redis every instance (awaited-answers.ts). */
  readonly answers: AwaitedAnswers;
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
    // A client's answer to a request an exchange awaits, on this instance or (through Redis) another.
    if (isPostedResponse(body)) {
      const outcome = await options.answers.answer(body, owner);
      if (outcome === 'taken') return new Response(null, { status: 202 });
      if (outcome !== 'unknown') return refusedAnswer(outcome);
    }
    const elicits = request.headers.get('mcp-session-id')?.startsWith(ELICITING_SESSION) ?? false;
    const method = (body as { method?: unknown } | null)?.method;
    // tasks/result blocks until its task ends and sends status notifications meanwhile (mcp-task-waits.ts).
    const streamed = (elicits && method === 'tools/call') || method === 'tasks/result';
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
      const eliciting = declaresElicitation(body)
        ? declaresUrlElicitation(body)
          ? urlElicitingSessionId()
          : elicitingSessionId()
        : undefined;
      // A client that renders MCP Apps views: its session id says so too (view-capability.ts).
      const sessionId = initializeDeclaresViews(body) ? viewsSessionId(eliciting) : eliciting;
      if (sessionId && response.ok) response.headers.set('mcp-session-id', sessionId);
      return response;
    }
    // The answer is a stream that outlives this function: the server closes once the call is answered.
    const close = () => void server.close().catch(() => undefined);
    const relay = new RelayTransport(inner, options.answers, owner, options.waitMs + 5_000, () =>
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

const REFUSED: Record<Exclude<AnswerOutcome, 'taken' | 'unknown'>, readonly [number, string]> = {
  unreachable: [
    503,
    'The call waiting for this answer is on another instance that cannot be reached now (it is reconnecting to the shared store, or it stopped: then the call ended and changed nothing). Send the answer again shortly.',
  ],
  'store-unavailable': [
    503,
    'The answer could not be handed to the instance whose call waits for it: the shared store (Redis) is unavailable. Send it again shortly; unanswered, the call ends when its wait runs out and changes nothing.',
  ],
  'too-large': [413, "The answer is larger than an answer to the gateway's request may be (64 KiB)."],
};

/** An answer that could not be handed on: said plainly, with when to send it again. */
const refusedAnswer = (outcome: Exclude<AnswerOutcome, 'taken' | 'unknown'>): Response => {
  const [status, message] = REFUSED[outcome];
  return new Response(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }), {
    status,
    headers: {
      'content-type': 'application/json',
      ...(status === 503 ? { 'retry-after': String(RELAY_RETRY_SECONDS) } : {}),
    },
  });
};
