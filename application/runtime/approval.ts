import type { HumanApproval } from '../../ports/tenant-settings.js';
import type { CallContext } from './define-tool.js';
import type { ApprovalNote, CallMeta, Controls, DestructiveGate, PersonChannel, ToolResult } from './executor-types.js';
import type { RegisteredTool } from './registry.js';
import { toolError } from './tool-error.js';

// Who approves what cannot be undone or costs money (issue 30). A gated call is a Destructive tool or a
// skip trace (each BatchData match is billed). By the tenant's human_approval setting:
//
// - off: nobody is asked; a Destructive call takes today's confirm token when GATEWAY_CONFIRM_DESTRUCTIVE is
//   on (the model confirms), a skip trace runs.
// - when_possible: a client that can ask a person (PersonChannel: MCP 2026-07-28 input_required, or a
//   2025-11-25 client that declared elicitation) gets APPROVAL_REQUIRED with the preview and a token (the
//   confirm token's scheme under the label "approve"), asks the person, and calls again with the token
//   and the answer: accepted, the call runs once (approver `person`); declined, nothing changes. Any other
//   client (REST included) gets today's flow: the confirm token for a Destructive call when
//   GATEWAY_CONFIRM_DESTRUCTIVE is on (approver `model`), and a skip trace runs (approver `nobody`):
//   a token the model sets itself adds a round trip and no protection, so skip traces get none.
// - required: as when_possible, but a client that cannot ask a person is refused (HUMAN_APPROVAL_REQUIRED).
//
// Dry runs (dry_run=true) change nothing and are answered whatever the setting.

/** The internal code of the first round's answer: the surface turns it into a question for a person. */
export const APPROVAL_REQUIRED = 'APPROVAL_REQUIRED';

/** Why a tool needs approval, or undefined when it does not. */
export const gatedBy = (tool: RegisteredTool): 'destructive' | 'billed' | undefined =>
  tool.declaration.annotations.kind === 'Destructive'
    ? 'destructive'
    : tool.declaration.group === 'skiptrace'
      ? 'billed'
      : undefined;

/** Why a person is asked, by what the call does (a preview may say it more exactly: Preview.reason). */
const REASON = {
  destructive: 'it deletes data',
  billed: 'it costs money (each BatchData match is billed)',
} as const;

/** The details of an APPROVAL_REQUIRED answer, which the surface reads to ask the person. */
export interface ApprovalAsk {
  readonly would: string;
  readonly preview: Readonly<Record<string, unknown>>;
  readonly reason: string;
  readonly approval_token: string;
  readonly expires_in_seconds: number;
}

export interface GateInput {
  readonly tool: RegisteredTool;
  readonly params: unknown;
  /** A Destructive tool's dry_run and confirm_token (undefined for a skip trace). */
  readonly controls: Controls | undefined;
  readonly useCase: object;
  readonly context: CallContext;
  readonly meta: CallMeta | undefined;
  readonly mode: HumanApproval;
  readonly person: PersonChannel | undefined;
  readonly gate: DestructiveGate | undefined;
  readonly note: ApprovalNote;
}

const fail = (input: GateInput, error: ReturnType<typeof toolError>): ToolResult => ({
  ok: false,
  error,
  meta: input.meta,
});

/** Before a gated call runs: the answer to give instead, or undefined to go ahead (`note.by` then says who approved). */
export const approveCall = async (input: GateInput): Promise<ToolResult | undefined> => {
  const { tool, params, controls, useCase, context, meta, mode, person, gate, note } = input;
  const why = gatedBy(tool);
  if (why === undefined) return undefined;
  note.gated = { why, mode };
  // A dry run, or a tenant (or a gateway without tokens) that asks nobody: today's confirm-token flow.
  if (controls?.dryRun || mode === 'off' || !gate) {
    return controls && gate ? gate.check(tool, params, controls, useCase, context, meta, note) : undefined;
  }
  if (person?.answer) {
    const refused = await gate.redeemApproval(person.answer.token, context.principal, tool, params);
    if (refused) return fail(input, refused);
    if (!person.answer.approved) {
      // The person answered: the audit row names them, whatever they decided.
      note.by = 'person';
      return fail(
        input,
        toolError(
          403,
          'APPROVAL_DECLINED',
          `A person declined this ${tool.name} call: nothing was changed. Do not repeat it unless the person asks for it.`,
          { tool: tool.name, approver: 'person' },
        ),
      );
    }
    note.by = 'person';
    note.approveAgain = () => gate.issueApproval(context.principal, tool, params);
    return undefined;
  }
  if (person) {
    const preview = await gate.preview(tool, params, useCase, context);
    if ('status' in preview) return fail(input, preview);
    const reason = preview.reason ?? REASON[why];
    const details: ApprovalAsk = {
      would: preview.summary,
      preview: preview.facts,
      reason,
      approval_token: gate.issueApproval(context.principal, tool, params),
      expires_in_seconds: gate.ttlSeconds,
    };
    return fail(
      input,
      toolError(
        428,
        APPROVAL_REQUIRED,
        `A person must approve this call (${reason}): it would ${preview.summary}.`,
        details as unknown as Record<string, unknown>,
      ),
    );
  }
  if (mode === 'required') {
    return fail(
      input,
      toolError(
        403,
        'HUMAN_APPROVAL_REQUIRED',
        `Nothing was changed: this workspace requires a person to approve ${tool.name} (${REASON[why]}), and this client cannot ask one. Call it from an MCP client that supports elicitation (MCP 2026-07-28, or 2025-11-25 declaring the elicitation capability), where a person approves it.${why === 'destructive' ? ' dry_run=true still previews it.' : ''}`,
        { tool: tool.name, human_approval: 'required' },
      ),
    );
  }
  return controls ? gate.check(tool, params, controls, useCase, context, meta, note) : undefined;
};

/**
 * A call a person approved that could not run for want of a connection keeps its approval: the surface that
 * asks the person to connect runs it again with this token, so the person is not asked to approve twice.
 */
export const carryApproval = (result: ToolResult, note: ApprovalNote): ToolResult =>
  !result.ok && result.error.code === 'NOT_CONNECTED' && note.approveAgain
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
