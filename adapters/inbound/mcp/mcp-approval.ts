import {
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  inputResponse,
  SdkError,
  SdkErrorCode,
  type ElicitRequestFormParams,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { ApprovalAsk, Unanswered } from '../../../application/runtime/approval.js';
import { approvalError } from '../../../application/runtime/approval-outcomes.js';
import type { PersonChannel, ToolResult } from '../../../application/runtime/executor-types.js';
import { toolError, type ToolError } from '../../../application/runtime/tool-error.js';
import { TooManyApprovals } from './legacy-relay.js';
import { RELAY_RETRY_SECONDS, RelayUnavailable, type AnswersWatch } from './awaited-answers.js';
import { viewsIn } from './view-capability.js';

// A person approves a gated call (a Destructive tool, a skip trace) through the MCP client: the executor's
// first answer is AwaitingApproval (`awaiting: 'approval'`) with a preview and a token (approval.ts); this
// module asks the person.
// - 2026-07-28: tools/call answers `input_required` with an elicitation form and the token as `requestState`;
//   the client asks the person and retries with `inputResponses` and the same `requestState`.
// - 2025-11-25 with elicitation: `elicitation/create` on the same exchange's stream (the answer arrives
//   as a separate POST to any instance, routed back by legacy-relay.ts and awaited-answers.ts), then the call
//   runs within the same tools/call.
// - a client that renders MCP Apps views (mcp-views.ts): the answer is the approval ask itself
//   (approvalCardAnswer), which the tool's view shows as a card; the person's Approve or Decline comes back as the app-only tool
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

/**
 * Runs a call (`run`, the executor with the channel it is given) with a person's approval where the client
 * can ask one: the answer to give, which on 2026-07-28 may be an `input_required` result. For a client with
 * views the answer is the AwaitingApproval itself, which toCallToolResult gives as the approval card's answer.
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
  if (reach === 'view') return run({});
  if (reach === 'input_required') {
    const state = ctx.mcpReq.requestState();
    if (typeof state === 'string') {
      const view = inputResponse(ctx.mcpReq.inputResponses, APPROVAL_INPUT);
      const approved = view.kind === 'elicit' && approvedIn(view);
      return run({ answer: { token: state, approved } });
    }
    const first = await run({});
    return first.awaiting === 'approval' ? askInput(tool, first.ask) : first;
  }
  const first = await run({});
  if (first.awaiting !== 'approval') return first;
  const { ask } = first;
  let answer;
  const mark = answers?.mark();
  try {
    answer = await ctx.mcpReq.send(
      { method: 'elicitation/create', params: approvalForm(tool, ask) },
      { timeout: Math.min(waitMs, ask.expiresInSeconds * 1000) },
    );
  } catch (error) {
    const why = unansweredBy(error, waitMs, mark !== undefined && answers!.lostSince(mark));
    return { ok: false, error: approvalError(tool, { kind: 'unanswered', why }) };
  }
  return run({ answer: { token: ask.token, approved: approvedIn(answer) } });
};

/** The 2026-07-28 answer that asks the client to ask its person: the form, with the token as requestState. */
export const askInput = (tool: string, ask: ApprovalAsk): InputRequiredResult =>
  inputRequired({
    inputRequests: { [APPROVAL_INPUT]: inputRequired.elicit(approvalForm(tool, ask)) },
    requestState: ask.token,
  });

/**
 * The approval ask as the wire carries it to a client with views: an `isError` answer whose text tells the
 * model a person is shown the card (nothing has changed), and whose error envelope (code APPROVAL_REQUIRED,
 * the ask and the tool's name in its details) the card reads (views/client/shell.ts).
 */
export const approvalCardAnswer = (tool: string, ask: ApprovalAsk): ToolError =>
  toolError(
    428,
    'APPROVAL_REQUIRED',
    `Waiting for a person: the approval card shown with this answer asks them to approve or decline ${tool} (${ask.reason}); it would ${ask.would}. Nothing has changed yet, and the card runs it once if they approve: do not call it again.`,
    {
      would: ask.would,
      preview: ask.preview,
      reason: ask.reason,
      approval_token: ask.token,
      expires_in_seconds: ask.expiresInSeconds,
      tool,
    },
  );

/**
 * Why no answer came, by what the wait threw: the shared store could not take it (RelayUnavailable), too many
 * approvals wait (TooManyApprovals), the SDK's wait ran out (SdkError RequestTimeout), or the client failed.
 */
export const unansweredBy = (error: unknown, waitMs: number, answersLost: boolean): Unanswered => {
  if (error instanceof RelayUnavailable) return { kind: 'relay-unavailable', retryAfterSeconds: RELAY_RETRY_SECONDS };
  if (error instanceof TooManyApprovals) return { kind: 'too-many-waiting', ...error.refusal };
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
    return { kind: 'timeout', waitMs, answersLost };
  return { kind: 'client-failed', detail: error instanceof Error ? error.message : String(error) };
};
