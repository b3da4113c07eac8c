import { randomBytes, randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type InputRequiredResult,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ConnectionWatch } from '../../../application/connections/connection-watch.js';
import type { PersonChannel, ToolResult } from '../../../application/runtime/executor-types.js';
import { isVendor, VENDOR_LABELS, type Vendor } from '../../../ports/connection-store.js';
import { askInput } from './mcp-approval.js';
import { ELICITING_SESSION } from './legacy-relay.js';
import { RESUME_PREFIX } from '../../../application/connections/connect-resume.js';
import { toolError } from '../../../application/runtime/tool-error.js';

// Connect in the conversation (issue 43): a call that needs a vendor connection the caller lacks, from a
// client that declared URL-mode elicitation, asks the client to open the gateway's connect page for its
// person, and goes on once they have connected.
// - The URL is the caller's connect link (connect-link.ts): its page asks for the gateway sign-in and sends on
//   only the caller it was made for, so the URL is bound to the caller's identity, not a bearer ticket.
// - 2025-11-25: `elicitation/create` with mode "url" and an elicitationId on the call's own stream (as the
//   approval's form, legacy-relay.ts); once the connection exists, `notifications/elicitation/complete` with
//   that id, then the call runs and answers within the same tools/call.
// - 2026-07-28: tools/call answers `input_required` with a URL elicitation (that revision has neither the
//   elicitationId nor the completion notification) and a sealed requestState (connect-resume.ts); the client's retry
//   after the person accepted waits for the connection and runs the call.
// While the call waits it holds no slot anywhere but the ConnectionWatch (bounded), and wakes when a
// connection of the tenant to that vendor changes, or every RECHECK_MS to look again.

/** The key of the one input request on 2026-07-28: the person's answer to "open the connect page?". */
export const CONNECT_INPUT = 'connect';
/** How long a call waits for its person to connect, by default. */
export const DEFAULT_CONNECT_WAIT_MS = 120_000;
/** A waiting call looks again this often even without a change announced (a change on an unannounced instance). */
const RECHECK_MS = 15_000;

/** The session id of a 2025-era client that declared URL elicitation (a kind of eliciting session). */
export const URL_ELICITING_SESSION = `${ELICITING_SESSION}u.`;
export const urlElicitingSessionId = (): string => `${URL_ELICITING_SESSION}${randomBytes(16).toString('base64url')}`;

/** An initialize request that declares URL-mode elicitation. */
export const declaresUrlElicitation = (body: unknown): boolean => {
  const b = body as { method?: unknown; params?: { capabilities?: { elicitation?: { url?: unknown } } } } | null;
  return b?.method === 'initialize' && !!b.params?.capabilities?.elicitation?.url;
};

/**
 * Whether this 2025-era request comes from a session that declared URL elicitation. The per-request server
 * of the stateless 2025 leg never sees initialize, so it is told what the session id says: the SDK refuses
 * `notifications/elicitation/complete` to a client it does not know declared URL elicitation.
 */
export const declaredUrlElicitation = (server: Server, request: Request | undefined): boolean => {
  const url = request?.headers.get('mcp-session-id')?.startsWith(URL_ELICITING_SESSION) ?? false;
  if (url) Reflect.set(server, '_clientCapabilities', { elicitation: { form: {}, url: {} } });
  return url;
};

/** How the client of this request can open a URL for its person, if at all. */
export type ConnectReach = 'input_required' | 'elicitation' | undefined;

export const connectReach = (ctx: ServerContext | undefined, legacyUrl: boolean | undefined): ConnectReach => {
  if (!ctx) return undefined;
  const envelope = ctx.mcpReq.envelope;
  if (envelope && CLIENT_CAPABILITIES_META_KEY in envelope) {
    const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: { url?: unknown } } | undefined;
    return capabilities?.elicitation?.url ? 'input_required' : undefined;
  }
  return legacyUrl ? 'elicitation' : undefined;
};

type Run = (person?: PersonChannel) => Promise<ToolResult>;

/** A connect requestState the gateway cannot take: said plainly, and nothing runs. */
const refusedState = (why: string): ToolResult => ({
  ok: false,
  error: toolError(
    400,
    'INVALID_PARAMETER',
    `${why} Nothing ran. Call the tool again without a requestState; the gateway asks the person to connect again if it must.`,
    { parameter: 'requestState', expected: "the requestState the gateway gave this caller's call" },
  ),
});

interface Missing {
  readonly vendor: Vendor;
  readonly url: string;
}

const missingIn = (result: ToolResult | InputRequiredResult): Missing | undefined => {
  if ('resultType' in result || result.ok || result.awaiting || result.error.code !== 'NOT_CONNECTED') return undefined;
  const details = result.error.details as { vendor?: unknown; connect_url?: unknown } | undefined;
  return typeof details?.vendor === 'string' && isVendor(details.vendor) && typeof details.connect_url === 'string'
    ? { vendor: details.vendor, url: details.connect_url }
    : undefined;
};

/** The approval a person gave a call that then lacked its connection (executor-types.ts). */
const carriedIn = (result: ToolResult | InputRequiredResult): string | undefined =>
  'resultType' in result || result.ok || result.awaiting ? undefined : result.carriedApproval;

const connectMessage = (tool: string, vendor: Vendor): string =>
  `${tool} needs your ${VENDOR_LABELS[vendor]} account, which is not connected yet. Open the gateway's connect page: ` +
  `sign in to the gateway there, then to ${VENDOR_LABELS[vendor]}. The call goes on once you are connected.`;

export interface ConnectOptions {
  readonly watch: ConnectionWatch;
  readonly tenant: string;
  /** The caller: a 2026-07-28 requestState is sealed for it alone. */
  readonly principalId: string;
  /** How long the call waits for its person to connect. */
  readonly waitMs: number;
  /** How long a 2025-era exchange waits for the client's answer to the elicitation. */
  readonly askWaitMs: number;
}

/** Runs the call until it no longer lacks the connection, waiting for changes of it, until `waitMs` is spent. */
const untilConnected = async (
  run: Run,
  vendor: Vendor,
  ctx: ServerContext,
  o: ConnectOptions,
  carried: string | undefined,
): Promise<ToolResult> => {
  const deadline = Date.now() + o.waitMs;
  const progressToken = ctx.mcpReq._meta?.progressToken;
  // The person's approval of this call, carried across the wait (each run that still lacks the connection
  // hands on a fresh token): a gated call is not approved twice.
  let approval = carried;
  for (let looked = 1; ; looked++) {
    // Taken before the look: a connection made while the call looks still wakes it.
    const mark = o.watch.mark(o.tenant, vendor);
    const result = await run(approval ? { answer: { token: approval, approved: true } } : {});
    approval = carriedIn(result);
    const left = deadline - Date.now();
    if (!missingIn(result) || left <= 0) return result;
    const end = await o.watch.changeOf(o.tenant, vendor, Math.min(left, RECHECK_MS), ctx.mcpReq.signal, mark);
    // Too many calls wait already, or the client cancelled: the answer with the link stands.
    if (end === 'full' || end === 'aborted') return result;
    // A client that asked for progress hears that the call still waits (and may keep its timeout open).
    if (progressToken !== undefined)
      await ctx.mcpReq
        .notify({
          method: 'notifications/progress',
          params: { progressToken, progress: looked, message: `Waiting for ${VENDOR_LABELS[vendor]} to be connected` },
        })
        .catch(() => undefined);
  }
};

/**
 * Runs a call (`withPerson`: the call with a person's approval where the client can ask one; `run`: one
 * plain run) and, where it lacks a connection and the client can open a URL for its person, asks them to
 * connect and runs it again once they have.
 */
export const runWithConnect = async (
  tool: string,
  withPerson: () => Promise<ToolResult | InputRequiredResult>,
  run: Run,
  ctx: ServerContext,
  reach: Exclude<ConnectReach, undefined>,
  o: ConnectOptions,
): Promise<ToolResult | InputRequiredResult> => {
  if (reach === 'input_required') {
    const resume = o.watch.resume;
    if (!resume) return withPerson();
    const caller = { tenant: o.tenant, principalId: o.principalId };
    const state = ctx.mcpReq.requestState();
    if (typeof state === 'string' && state.startsWith(RESUME_PREFIX)) {
      const resumed = resume.open(caller, state);
      if ('refused' in resumed) return refusedState(resumed.refused);
      const { vendor, approval: carried } = resumed;
      // The retry after the person was asked: accepted, wait for the connection; else answer as it stands.
      const view = inputResponse(ctx.mcpReq.inputResponses, CONNECT_INPUT);
      const result =
        view.kind === 'elicit' && view.action === 'accept'
          ? await untilConnected(run, vendor, ctx, o, carried)
          : await run({});
      return result.awaiting === 'approval' ? askInput(tool, result.ask) : result;
    }
    const first = await withPerson();
    const missing = missingIn(first);
    if (!missing) return first;
    return inputRequired({
      inputRequests: {
        [CONNECT_INPUT]: inputRequired.elicitUrl({ message: connectMessage(tool, missing.vendor), url: missing.url }),
      },
      requestState: resume.seal(caller, missing.vendor, carriedIn(first)),
    });
  }
  const first = await withPerson();
  const missing = missingIn(first);
  if (!missing) return first;
  const elicitationId = randomUUID();
  let answer: { action?: unknown };
  try {
    answer = await ctx.mcpReq.send(
      {
        method: 'elicitation/create',
        params: { mode: 'url', message: connectMessage(tool, missing.vendor), url: missing.url, elicitationId },
      },
      { timeout: o.askWaitMs },
    );
  } catch {
    return first; // the client could not ask: the answer with the link stands
  }
  if (answer.action !== 'accept') return first;
  const after = await untilConnected(run, missing.vendor, ctx, o, carriedIn(first));
  if (missingIn(after)) return after;
  await ctx.mcpReq
    .notify({ method: 'notifications/elicitation/complete', params: { elicitationId } })
    .catch(() => undefined);
  // Connected: the call as it would have run (a gated one asks its person's approval now).
  return after.awaiting === 'approval' ? withPerson() : after;
};
