import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  type ElicitRequestFormParams,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { APPROVAL_REQUIRED, type ApprovalAsk } from '../../../application/runtime/approval.js';
import type { PersonChannel, ToolResult } from '../../../application/runtime/executor-types.js';
import { toolError } from '../../../application/runtime/tool-error.js';
import { TooManyApprovals, type PendingRefusal } from './legacy-relay.js';
import { RELAY_RETRY_SECONDS, RELAY_UNAVAILABLE, RelayUnavailable, type AnswersWatch } from './awaited-answers.js';
import { viewsIn } from './view-capability.js';

// A person approves a gated call (a Destructive tool, a skip trace) through the MCP client: the executor's
// first answer is APPROVAL_REQUIRED with a preview and a token (approval.ts); this module asks the person.
// - 2026-07-28: tools/call answers `input_required` with an elicitation form and the token as `requestState`;
//   the client asks the person and retries with `inputResponses` and the same `requestState`.
// - 2025-11-25 with elicitation: `elicitation/create` on the same exchange's stream (the answer arrives
//   as a separate POST to any instance, routed back by legacy-relay.ts and awaited-answers.ts), then the call
//   runs within the same tools/call.
// - a client that renders MCP Apps views (mcp-views.ts): the answer is the approval ask itself, which the
//   tool's view shows as a card; the person's Approve or Decline comes back as the app-only tool
//   views_answerApproval (view-tools.ts) with the same single-use token.

/** The key of the one input request: the person's answer to "approve this call?". */
export const APPROVAL_INPUT = 'approval';

/** How long a 2025-era exchange waits for the person's answer by default. */
export const DEFAULT_APPROVAL_WAIT_MS = 120_000;

const factLine = ([key, value]: [string, unknown]): string | undefined =>
  value === undefined || value === null || value === ''
    ? undefined
    : `- ${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`;

/** The form a person answers: what the call would do (the dry run's preview) and one yes/no field. */
export const approvalForm = (tool: string, ask: ApprovalAsk): ElicitRequestFormParams => {
  const facts = Object.entries(ask.preview)
    .map(factLine)
    .filter((l): l is string => l !== undefined)
    .slice(0, 20);
  return {
    mode: 'form',
    message: [
      `Approve ${tool}? This call would ${ask.would}.`,
      `It needs a person's approval because ${ask.reason}.`,
      ...(facts.length ? ['', ...facts] : []),
    ].join('\n'),
    requestedSchema: {
      type: 'object',
      properties: {
        approve: {
          type: 'boolean',
          title: 'Approve',
          description: `Run ${tool} as described. Leave unticked (or decline) and nothing changes.`,
          default: false,
        },
      },
      required: ['approve'],
    },
  };
};

/** Whether the person approved: an accepted form with approve ticked; a decline, a cancel or no answer is a no. */
export const approvedIn = (answer: { action?: unknown; content?: Record<string, unknown> } | undefined): boolean =>
  answer?.action === 'accept' && answer.content?.['approve'] === true;

/** How the client of this exchange can reach a person, if at all. */
export type PersonReach = 'input_required' | 'elicitation' | 'view' | undefined;

/**
 * Views first (the card shows what the call would do; view-capability.ts), else elicitation: 2026-07-28 by
 * the request's own capabilities, 2025-era by what the client declared at initialize (its session).
 */
export const personReach = (ctx: ServerContext | undefined, legacyElicits: boolean | undefined): PersonReach => {
  if (!ctx) return undefined;
  if (viewsIn(ctx)) return 'view';
  const envelope = ctx.mcpReq.envelope;
  if (envelope && CLIENT_CAPABILITIES_META_KEY in envelope) {
    const capabilities = envelope[CLIENT_CAPABILITIES_META_KEY] as { elicitation?: unknown } | undefined;
    return capabilities?.elicitation ? 'input_required' : undefined;
  }
  return legacyElicits ? 'elicitation' : undefined;
};

const askOf = (result: ToolResult): ApprovalAsk | undefined =>
  !result.ok && result.error.code === APPROVAL_REQUIRED ? (result.error.details as unknown as ApprovalAsk) : undefined;

const failed = (error: ReturnType<typeof toolError>): ToolResult => ({ ok: false, error });

/**
 * Runs a call (`run`, the executor with the channel it is given) with a person's approval where the client
 * can ask one: the answer to give, which on 2026-07-28 may be an `input_required` result.
 */
export const runWithPerson = async (
  tool: string,
  run: (person?: PersonChannel) => Promise<ToolResult>,
  ctx: ServerContext | undefined,
  reach: PersonReach,
  waitMs: number = DEFAULT_APPROVAL_WAIT_MS,
  answers?: AnswersWatch,
): Promise<ToolResult | InputRequiredResult> => {
  if (!ctx || reach === undefined) return run(undefined);
  if (reach === 'view') return askInView(tool, await run({}));
  if (reach === 'input_required') {
    const state = ctx.mcpReq.requestState();
    if (typeof state === 'string') {
      const view = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT);
      const approved = view.kind === 'elicit' && approvedIn(view);
      return run({ answer: { token: state, approved } });
    }
    const first = await run({});
    const ask = askOf(first);
    if (!ask) return first;
    return inputRequired({
      inputRequests: { [APPROVAL_INPUT]: inputRequired.elicit(approvalForm(tool, ask)) },
      requestState: ask.approval_token,
    });
  }
  const first = await run({});
  const ask = askOf(first);
  if (!ask) return first;
  let answer;
  const mark = answers?.mark();
  try {
    answer = await ctx.mcpReq.send(
      { method: 'elicitation/create', params: approvalForm(tool, ask) },
      { timeout: Math.min(waitMs, ask.expires_in_seconds * 1000) },
    );
  } catch (error) {
    return failed(notAnswered(tool, error, waitMs, mark !== undefined && answers!.lostSince(mark)));
  }
  return run({ answer: { token: ask.approval_token, approved: approvedIn(answer) } });
};

/**
 * For a client with views: the approval ask as the answer, in words for the model (a person is shown the
 * card; nothing has changed), with the ask and the tool's name in its details for the card.
 */
const askInView = (tool: string, first: ToolResult): ToolResult => {
  const ask = askOf(first);
  if (!ask || first.ok) return first;
  return {
    ...first,
    error: {
      ...first.error,
      message: `Waiting for a person: the approval card shown with this answer asks them to approve or decline ${tool} (${ask.reason}); it would ${ask.would}. Nothing has changed yet, and the card runs it once if they approve: do not call it again.`,
      details: { ...first.error.details, tool },
    },
  };
};

/** Which bound refused the approval, from the error the relay threw (or its words, if the SDK rewrapped it). */
const refusalIn = (error: unknown, text: string): PendingRefusal | undefined => {
  if (error instanceof TooManyApprovals) return error.refusal;
  const m = /too many approvals are waiting: (caller|tenant|gateway) (\d+), retry in (\d+) s/i.exec(text);
  if (m) return { scope: m[1] as PendingRefusal['scope'], limit: Number(m[2]), retryAfterSeconds: Number(m[3]) };
  return /too many approvals/i.test(text) ? { scope: 'gateway', limit: 0, retryAfterSeconds: 30 } : undefined;
};

const WHO_WAITS: Record<PendingRefusal['scope'], string> = {
  caller: 'you have',
  tenant: 'your workspace has',
  gateway: 'this gateway has',
};

/** Why no answer came: the wait ran out, too many approvals are waiting, or the client failed. Nothing changed. */
const notAnswered = (tool: string, error: unknown, waitMs: number, answersLost = false) => {
  const text = error instanceof Error ? error.message : String(error);
  if (error instanceof RelayUnavailable || text.includes(RELAY_UNAVAILABLE)) {
    return toolError(
      503,
      'UNAVAILABLE',
      `Nothing was changed and nobody was asked: the shared store (Redis) that carries a person's answer between the gateway's instances is unavailable, so the approval could not wait for it. Retry ${tool} in ${RELAY_RETRY_SECONDS} s.`,
      { retry_after_seconds: RELAY_RETRY_SECONDS, retryable: true },
    );
  }
  const refused = refusalIn(error, text);
  if (refused) {
    const { scope, limit, retryAfterSeconds } = refused;
    const count = limit > 0 ? `${limit} of ${limit} approvals` : 'as many approvals as it may have';
    return toolError(
      503,
      'UNAVAILABLE',
      `Nothing was changed: ${WHO_WAITS[scope]} ${count} waiting for a person's answer (the most ${scope === 'gateway' ? 'the gateway holds' : scope === 'tenant' ? 'one workspace may have' : 'one caller may have'} at once). Retry ${tool} in ${retryAfterSeconds} s, or once one of them is answered.`,
      { retry_after_seconds: retryAfterSeconds, retryable: true, limit, scope },
    );
  }
  if (/timed? ?out/i.test(text) && answersLost) {
    return toolError(
      504,
      'TIMEOUT',
      `Nothing was changed: no answer to the approval of ${tool} reached this call within ${Math.round(waitMs / 1000)} s, and the shared store (Redis) that carries answers between the gateway's instances was unreachable during the wait, so an answer given through another instance may have been lost. Call it again to ask again.`,
      { timeout_ms: waitMs, retryable: true, answers_interrupted: true },
    );
  }
  if (/timed? ?out/i.test(text)) {
    return toolError(
      504,
      'TIMEOUT',
      `Nothing was changed: no person answered the approval of ${tool} within ${Math.round(waitMs / 1000)} s. Call it again to ask again.`,
      { timeout_ms: waitMs, retryable: true },
    );
  }
  return toolError(
    502,
    'UPSTREAM_ERROR',
    `Nothing was changed: the client could not ask a person to approve ${tool} (${text.slice(0, 200)}).`,
    { retryable: true },
  );
};
