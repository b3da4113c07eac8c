// A 2025-era MCP client written out over fetch, for the tests that send one exchange's messages to
// different instances (the official client posts everything to one URL): initialize declaring elicitation,
// a tools/call whose answer is an SSE stream read message by message, and a posted answer to the server's
// request, to whichever instance the test names.

export type LegacyRevision = '2025-06-18' | '2025-11-25';
export const LEGACY_REVISIONS: readonly LegacyRevision[] = ['2025-06-18', '2025-11-25'];

export interface LegacySession {
  readonly revision: LegacyRevision;
  readonly token: string;
  /** The Mcp-Session-Id the gateway gave (`tg-elicit.` for a client that declared elicitation). */
  readonly sessionId: string;
}

const headersOf = (s: Pick<LegacySession, 'token' | 'revision'> & { sessionId?: string }) => ({
  authorization: `Bearer ${s.token}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': s.revision,
  ...(s.sessionId ? { 'mcp-session-id': s.sessionId } : {}),
});

/** `initialize` with form elicitation declared, then `notifications/initialized`, at `mcpUrl`. */
export const initializeEliciting = async (
  mcpUrl: string,
  token: string,
  revision: LegacyRevision,
): Promise<LegacySession> => {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: headersOf({ token, revision }),
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: revision,
        capabilities: { elicitation: { form: {} } },
        clientInfo: { name: 'legacy-test', version: '1' },
      },
    }),
  });
  const sessionId = res.headers.get('mcp-session-id');
  const body = await res.text();
  if (!res.ok || !sessionId) throw new Error(`initialize answered ${res.status} without a session: ${body}`);
  const session = { revision, token, sessionId };
  const done = await fetch(mcpUrl, {
    method: 'POST',
    headers: headersOf(session),
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await done.body?.cancel();
  return session;
};

/** The messages of one SSE answer, one at a time. */
export interface MessageStream {
  readonly status: number;
  /** The next JSON-RPC message, or undefined when the stream ended. */
  next(): Promise<any>;
  /** The next message that is not a notification (a request of the server's, or the call's answer). */
  nextNonNotification(): Promise<any>;
  cancel(): Promise<void>;
}

const skippingNotifications = (next: () => Promise<any>) => async (): Promise<any> => {
  for (;;) {
    const m = await next();
    if (m === undefined || m.id !== undefined) return m;
  }
};

/** Starts `tools/call` of `name` at `mcpUrl`; its answer is read as a stream of messages. */
export const startToolCall = async (
  mcpUrl: string,
  session: LegacySession,
  name: string,
  args: Record<string, unknown>,
): Promise<MessageStream> => {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: headersOf(session),
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name, arguments: args } }),
  });
  if (!(res.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const text = await res.text();
    let once: unknown = JSON.parse(text);
    const next = async () => {
      const m = once;
      once = undefined;
      return m;
    };
    return {
      status: res.status,
      next,
      nextNonNotification: skippingNotifications(next),
      cancel: async () => undefined,
    };
  }
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const next = async (): Promise<any> => {
    for (;;) {
      const end = buffer.search(/\r?\n\r?\n/);
      if (end >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const data = event
          .split(/\r?\n/)
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).trimStart())
          .join('\n');
        if (data) return JSON.parse(data);
        continue;
      }
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffer += value;
    }
  };
  return { status: res.status, next, nextNonNotification: skippingNotifications(next), cancel: () => reader.cancel() };
};

/** Posts the client's answer to the server's request `id` at `mcpUrl`: the status and the body's text. */
export const postAnswer = async (
  mcpUrl: string,
  session: LegacySession,
  id: unknown,
  result: unknown,
): Promise<{ status: number; body: string; retryAfter: string | null }> => {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: headersOf(session),
    body: JSON.stringify({ jsonrpc: '2.0', id, result }),
  });
  return { status: res.status, body: await res.text(), retryAfter: res.headers.get('retry-after') };
};

/** A person's "yes" to the gateway's approval form. */
export const APPROVE = { action: 'accept', content: { approve: true } };
