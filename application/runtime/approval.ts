import type { HumanApproval } from '../../ports/tenant-settings.js';
import type { CallContext } from './define-tool.js';
import type {
  ApprovalAsk,
  ApprovalNote,
  AwaitingApproval,
  CallMeta,
  Controls,
  DestructiveGate,
  Failed,
  PersonChannel,
  Settled,
  ToolResult,
} from './executor-types.js';
import type { RegisteredTool } from './registry.js';
import type { ToolError } from './tool-error.js';
import { answerOutcome, approvalError, REASON, type GatedBy } from './approval-outcomes.js';

export type { ApprovalAsk, AwaitingApproval } from './executor-types.js';
export type { ApprovalOutcome, Unanswered } from './approval-outcomes.js';

// Who approves what cannot be undone or costs money (issue 30). A gated call is a Destructive tool or a
// skip trace (each BatchData match is billed). By the tenant's human_approval setting:
//
// - off: nobody is asked; a Destructive call takes today's confirm token when GATEWAY_CONFIRM_DESTRUCTIVE is
//   on (the model confirms), a skip trace runs.
// - when_possible: a client that can ask a person (PersonChannel: MCP 2026-07-28 input_required, a
//   2025-11-25 client that declared elicitation, or one that shows the MCP Apps approval card) gets
//   AwaitingApproval (a ToolResult variant, `awaiting: 'approval'`) with the preview and a token (the
//   confirm token's scheme under the label "approve"), asks the person, and calls again with the token
//   and the answer: accepted, the call runs once (approver `person`); declined, nothing changes. Any other
//   client (REST included) gets today's flow: the confirm token for a Destructive call when
//   GATEWAY_CONFIRM_DESTRUCTIVE is on (approver `model`), and a skip trace runs (approver `nobody`):
//   a token the model sets itself adds a round trip and no protection, so skip traces get none.
// - required: as when_possible, but a client that cannot ask a person is refused (HUMAN_APPROVAL_REQUIRED).
//
// Dry runs (dry_run=true) change nothing and are answered whatever the setting.
//
// decideApproval answers "who approves and how" from the tool, the tenant's setting, the client's channel and
// the call's controls; approveCall, the executor's approval step, acts on it. How an approval ended (approved,
// declined, expired, refused token, the client cannot ask, no answer) is an ApprovalOutcome
// (approval-outcomes.ts), worded there once.

/** Why a tool needs approval, or undefined when it does not. */
export const gatedBy = (tool: RegisteredTool): GatedBy | undefined =>
  tool.declaration.annotations.kind === 'Destructive'
    ? 'destructive'
    : tool.declaration.group === 'skiptrace'
      ? 'billed'
      : undefined;

/** What decides who approves a call: the tool, the tenant's setting, the client's channel and the call's controls. */
export interface ApprovalQuestion {
  readonly tool: RegisteredTool;
  /** The tenant's human_approval setting. */
  readonly mode: HumanApproval;
  /** How the client reaches a person, if it can (with their answer on the second round). */
  readonly person: PersonChannel | undefined;
  /** A Destructive tool's dry_run and confirm_token (undefined for any other tool). */
  readonly controls: Controls | undefined;
  /** The gateway's confirm and approval tokens (none: nobody can be asked, nor confirm). */
  readonly gate: DestructiveGate | undefined;
}

/** Who approves a call, and how: the one answer the executor's approval step and a dry run's text act on. */
export type ApprovalDecision =
  /** Not gated: nothing to approve. */
  | { readonly by: 'none' }
  /** A dry run: its preview is the answer; `then` is who approves the same call without dry_run. */
  | {
      readonly by: 'dry-run';
      readonly gate: DestructiveGate;
      readonly controls: Controls;
      readonly then: ApprovalDecision;
    }
  /** The model, with a confirm token, where the gateway asks one (GATEWAY_CONFIRM_DESTRUCTIVE); else nobody. */
  | { readonly by: 'confirm-token'; readonly gate: DestructiveGate; readonly controls: Controls }
  /** Nobody: approval is off, or the client cannot ask a person and the tenant does not require one. */
  | { readonly by: 'nobody' }
  /** A person, asked through the client now. */
  | { readonly by: 'person'; readonly step: 'ask'; readonly gate: DestructiveGate }
  /** A person, who answered: the call runs if they approved and the token holds. */
  | {
      readonly by: 'person';
      readonly step: 'answer';
      readonly gate: DestructiveGate;
      readonly answer: NonNullable<PersonChannel['answer']>;
    }
  /** The tenant requires a person and this client cannot ask one. */
  | { readonly by: 'refused'; readonly gatedBy: GatedBy };

/** Who approves a call and how (the rules at the top of this file). */
export const decideApproval = (q: ApprovalQuestion): ApprovalDecision => {
  const why = gatedBy(q.tool);
  const { mode, person, controls, gate } = q;
  if (why === undefined) return { by: 'none' };
  if (controls?.dryRun && gate) {
    return { by: 'dry-run', gate, controls, then: decideApproval({ ...q, controls: { ...controls, dryRun: false } }) };
  }
  // A tenant (or a gateway without tokens) that asks nobody: today's confirm-token flow.
  if (mode === 'off' || !gate) return controls && gate ? { by: 'confirm-token', gate, controls } : { by: 'nobody' };
  if (person?.answer) return { by: 'person', step: 'answer', gate, answer: person.answer };
  if (person) return { by: 'person', step: 'ask', gate };
  if (mode === 'required') return { by: 'refused', gatedBy: why };
  return controls ? { by: 'confirm-token', gate, controls } : { by: 'nobody' };
};

/** What a dry run's text says comes next, from who approves the same call without dry_run. */
const nextAfterDryRun = (then: ApprovalDecision): NonNullable<ApprovalNote['next']> =>
  then.by === 'person' ? 'person' : then.by === 'refused' ? 'refused' : 'token';

export interface GateInput extends ApprovalQuestion {
  readonly params: unknown;
  readonly useCase: object;
  readonly context: CallContext;
  readonly meta: CallMeta | undefined;
  readonly note: ApprovalNote;
}

const fail = (input: GateInput, error: ToolError): Failed => ({ ok: false, error, meta: input.meta });

/**
 * Before a gated call runs: the answer to give instead (a person's approval to ask, a refusal, a dry run's
 * preview), or undefined to go ahead (`note.by` then says who approved).
 */
export const approveCall = async (input: GateInput): Promise<Settled | AwaitingApproval | undefined> => {
  const { tool, params, useCase, context, meta, note } = input;
  const decision = decideApproval(input);
  if (decision.by === 'none') return undefined;
  note.gated = { why: gatedBy(tool)!, mode: input.mode };
  switch (decision.by) {
    case 'dry-run':
      note.next = nextAfterDryRun(decision.then);
      return decision.gate.check(tool, params, decision.controls, useCase, context, meta, note);
    case 'confirm-token':
      return decision.gate.check(tool, params, decision.controls, useCase, context, meta, note);
    case 'nobody':
      return undefined;
    case 'refused':
      return fail(input, approvalError(tool.name, { kind: 'cannot-ask', gatedBy: decision.gatedBy }));
    case 'person':
      break;
  }
  const { gate } = decision;
  if (decision.step === 'ask') {
    const preview = await gate.preview(tool, params, useCase, context);
    if ('status' in preview) return fail(input, preview);
    const ask: ApprovalAsk = {
      would: preview.summary,
      preview: preview.facts,
      reason: preview.reason ?? REASON[note.gated.why],
      token: gate.issueApproval(context.principal, tool, params),
      expiresInSeconds: gate.ttlSeconds,
    };
    return { ok: false, awaiting: 'approval', tool, ask, meta };
  }
  const { token, approved } = decision.answer;
  const outcome = answerOutcome(await gate.redeemApproval(token, context.principal, tool, params), approved);
  // The person answered: the audit row names them, whatever they decided (not a token that failed).
  if (outcome.kind === 'approved' || outcome.kind === 'declined') note.by = 'person';
  if (outcome.kind !== 'approved') return fail(input, approvalError(tool.name, outcome));
  note.approveAgain = () => gate.issueApproval(context.principal, tool, params);
  return undefined;
};

/**
 * A call a person approved that could not run for want of a connection keeps its approval: the surface that
 * asks the person to connect runs it again with this token, so the person is not asked to approve twice.
 */
export const carryApproval = (result: ToolResult, note: ApprovalNote): ToolResult =>
  !result.ok && !result.awaiting && result.error.code === 'NOT_CONNECTED' && note.approveAgain
    ? { ...result, carriedApproval: note.approveAgain() }
    : result;

const BY_MODEL = 'Confirmed by the model (a confirm token), not by a person: this client cannot ask one.';

/** Who let a gated call that ran go ahead (a person, the model, nobody), in words. */
const whoApproved = (note: ApprovalNote): string | undefined => {
  if (note.by === 'model') return BY_MODEL;
  if (note.by === 'person') return 'A person approved this call before it ran.';
  if (note.by !== 'nobody' || !note.gated) return undefined;
  const why =
    note.gated.mode === 'off' ? 'approval is off for this workspace' : 'this client cannot ask a person to approve it';
  return note.gated.why === 'billed'
    ? `Nobody approved this lookup: ${why}.`
    : `Nobody confirmed this call, neither a person nor the model: ${why}, and no confirm token is required.`;
};

/**
 * A gated call that ran says in its text who let it (the model, or nobody): the answer never passes for a
 * person's approval. A dry run changed nothing and says nothing of it.
 */
export const sayWhoApproved = (result: ToolResult, note: ApprovalNote): ToolResult => {
  const said = result.ok && !isDryRun(result.payload) ? whoApproved(note) : undefined;
  if (!result.ok || !said) return result;
  const { presentation, text } = result;
  return {
    ...result,
    text: () => `${text()}\n\n${said}`,
    ...(presentation
      ? {
          presentation: () => {
            const drawn = presentation();
            return typeof drawn === 'string'
              ? `${drawn}\n\n${said}`
              : { ...drawn, after: drawn.after ? `${drawn.after}\n\n${said}` : said };
          },
        }
      : {}),
  };
};

const isDryRun = (payload: unknown): boolean =>
  typeof payload === 'object' && payload !== null && (payload as { dry_run?: unknown }).dry_run === true;
