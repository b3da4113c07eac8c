import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Principal } from '../../ports/authenticator.js';
import type { Clock } from '../../ports/clock.js';
import type { IdempotencyStore } from '../../ports/idempotency-store.js';
import type { GatewayError } from '../../domain/shared/errors.js';
import type { TaskEither } from '../../domain/shared/fp.js';
import type { CallContext } from './define-tool.js';
import type { ApprovalNote, CallMeta, Controls, DestructiveGate, Settled } from './executor-types.js';
import { fingerprintOf } from './idempotency.js';
import type { RegisteredTool } from './registry.js';
import { fromGatewayError, toolError, type ToolError } from './tool-error.js';
import { TOKEN_FAULT, tokenUnverifiable, type TokenFault } from './approval-outcomes.js';

// Safe deletes. A Destructive tool takes two extra parameters: `dry_run` (show what would go, change
// nothing) and `confirm_token`. With GATEWAY_CONFIRM_DESTRUCTIVE=true a call without a valid token
// changes nothing: it answers 428 with a preview of exactly what would go and a token, HMAC-signed over
// the tenant, the principal, the tool and the decoded arguments, valid 5 minutes and usable once. The
// same call with the token runs.
//
// The same tokens, under another label, are the `requestState` of a person's approval (approval.ts): a
// token is either a confirm token (the model's own confirmation) or an approval token (a person's), and
// one never passes as the other.

/** What a token stands for: the model's confirm_token, or the state of a person's approval. */
export type TokenUse = 'confirm' | 'approve';

/** What a destructive call would remove, in words and as facts (ids, names, counts, sizes). */
export interface Preview {
  /** Completes "This call would ...": "move the folder Contracts (id fo1, 12 files, 3.4 MB) to the recycle bin". */
  readonly summary: string;
  readonly facts: Readonly<Record<string, unknown>>;
  /** Why a person is asked, when "it deletes data" says it too vaguely ("it removes people from the workspace"). */
  readonly reason?: string;
}

/** A use case that can say what its call would remove without removing it. */
export interface Previewable<P> {
  preview(params: P, context: CallContext): TaskEither<GatewayError, Preview>;
}

export const hasPreview = (useCase: object): useCase is Previewable<unknown> =>
  typeof (useCase as Partial<Previewable<unknown>>).preview === 'function';

export interface ConfirmPolicy {
  /** GATEWAY_CONFIRM_DESTRUCTIVE: a Destructive call needs a confirm token. */
  readonly required: boolean;
  /** The HMAC key; every instance that may receive the confirming call needs the same one. */
  readonly secret: Uint8Array;
  /** Where used tokens are remembered until they expire (the idempotency store: shared through Redis). */
  readonly ledger: IdempotencyStore;
  readonly clock: Clock;
  readonly ttlSeconds?: number;
}

/** Takes `dry_run` and `confirm_token` out of a Destructive call's arguments, or says what is wrong with them. */
export const takeControls = (
  input: Record<string, unknown>,
): { rest: Record<string, unknown>; controls: Controls } | ToolError => {
  const { dry_run: dryRun, confirm_token: confirmToken, ...rest } = input;
  if (dryRun !== undefined && typeof dryRun !== 'boolean') {
    return toolError(400, 'INVALID_PARAMETER', 'Parameter "dry_run" must be a boolean.', {
      parameter: 'dry_run',
      expected: 'boolean',
    });
  }
  if (confirmToken !== undefined && (typeof confirmToken !== 'string' || confirmToken.length > 512)) {
    return toolError(400, 'INVALID_PARAMETER', 'Parameter "confirm_token" must be the token string the gateway gave.', {
      parameter: 'confirm_token',
      expected: 'string of at most 512 characters',
    });
  }
  return { rest, controls: { dryRun: dryRun === true, confirmToken: confirmToken as string | undefined } };
};

const b64 = (b: Buffer) => b.toString('base64url');

export class ConfirmGate implements DestructiveGate {
  private readonly ttl: number;
  constructor(private readonly policy: ConfirmPolicy) {
    this.ttl = policy.ttlSeconds ?? 300;
  }

  /** A random key for a single instance (tokens then verify only where they were issued). */
  static randomSecret(): Uint8Array {
    return randomBytes(32);
  }

  /** How long a token is valid, in seconds. */
  get ttlSeconds(): number {
    return this.ttl;
  }

  private signature(
    use: TokenUse,
    principal: Principal,
    tool: string,
    fingerprint: string,
    expires: number,
    nonce: string,
  ): Buffer {
    const label = use === 'confirm' ? 'confirm/v1' : 'approve/v1';
    return createHmac('sha256', this.policy.secret)
      .update([label, principal.tenant, principal.id, tool, fingerprint, String(expires), nonce].join('\n'))
      .digest();
  }

  private issue(principal: Principal, tool: string, fingerprint: string, use: TokenUse = 'confirm'): string {
    const expires = Math.floor(this.policy.clock.now().getTime() / 1000) + this.ttl;
    const nonce = b64(randomBytes(12));
    return `${expires}.${nonce}.${b64(this.signature(use, principal, tool, fingerprint, expires, nonce))}`;
  }

  /** A token for a person's approval of exactly this call (tenant, principal, tool, decoded arguments). */
  issueApproval(principal: Principal, tool: RegisteredTool, params: unknown): string {
    return this.issue(principal, tool.name, fingerprintOf(tool.name, params), 'approve');
  }

  /** Checks an approval token against this call and uses it up; what is wrong with it, or undefined. */
  redeemApproval(
    token: string,
    principal: Principal,
    tool: RegisteredTool,
    params: unknown,
  ): Promise<TokenFault | undefined> {
    return this.redeem(token, principal, tool, fingerprintOf(tool.name, params), 'approve');
  }

  /** What the call would do, from the use case's preview (or its arguments), or the error the call would give. */
  async preview(
    tool: RegisteredTool,
    params: unknown,
    useCase: object,
    context: CallContext,
  ): Promise<Preview | ToolError> {
    if (!hasPreview(useCase)) return { summary: `run ${tool.name} with ${JSON.stringify(params)}`, facts: {} };
    const outcome = await useCase.preview(params, context)();
    // The target does not exist (or cannot be read): the same error the call itself would give.
    return outcome._tag === 'Left' ? fromGatewayError(outcome.left) : outcome.right;
  }

  /**
   * Before a Destructive call runs: a ToolResult to answer instead (a dry run, a confirmation request, a
   * refused token), or undefined to go ahead.
   */
  async check(
    tool: RegisteredTool,
    params: unknown,
    controls: Controls,
    useCase: object,
    context: CallContext,
    meta: CallMeta | undefined,
    note?: ApprovalNote,
  ): Promise<Settled | undefined> {
    const { principal } = context;
    const fingerprint = fingerprintOf(tool.name, params);
    if (controls.dryRun) return this.previewAnswer(tool, params, useCase, context, fingerprint, meta, false, note);
    if (controls.confirmToken !== undefined) {
      const refused = await this.redeem(controls.confirmToken, principal, tool, fingerprint, 'confirm');
      if (refused) return { ok: false, error: confirmTokenError(tool.name, refused), meta };
      if (note) note.by = 'model';
      return undefined;
    }
    if (!this.policy.required) return undefined;
    return this.previewAnswer(tool, params, useCase, context, fingerprint, meta, true);
  }

  private async previewAnswer(
    tool: RegisteredTool,
    params: unknown,
    useCase: object,
    context: CallContext,
    fingerprint: string,
    meta: CallMeta | undefined,
    asRefusal: boolean,
    note?: ApprovalNote,
  ): Promise<Settled> {
    const preview = await this.preview(tool, params, useCase, context);
    if ('status' in preview) return { ok: false, error: preview, meta };
    const token = this.issue(context.principal, tool.name, fingerprint);
    const again = `call ${tool.name} again with the same arguments and "confirm_token": "${token}" (valid ${Math.round(this.ttl / 60)} minutes, once)`;
    if (asRefusal) {
      return {
        ok: false,
        meta,
        error: toolError(
          428,
          'CONFIRMATION_REQUIRED',
          `Nothing was changed: this gateway asks for confirmation before a destructive call, and this client cannot ask a person, so the confirmation is yours (the model's), not a person's. This call would ${preview.summary}. If that is intended, ${again}.`,
          { preview: preview.facts, would: preview.summary, confirm_token: token, expires_in_seconds: this.ttl },
        ),
      };
    }
    // A workspace that requires a person, and a client that cannot ask one: no token route to offer (the call
    // would be refused whatever token came with it).
    const personOnly = note?.next === 'refused';
    const payload = {
      dry_run: true,
      would: preview.summary,
      preview: preview.facts,
      ...(personOnly ? { human_approval: 'required' } : { confirm_token: token }),
    };
    return {
      ok: true,
      tool,
      payload,
      text: () =>
        [
          `## Dry run of ${tool.name}: nothing was changed`,
          '',
          `This call would ${preview.summary}.`,
          '',
          note?.next === 'person'
            ? `To go ahead, call ${tool.name} again without dry_run: your client will ask a person to approve it.`
            : personOnly
              ? `This workspace requires a person to approve ${tool.name}, and this client cannot ask one: call it from an MCP client that supports elicitation, where a person approves it.`
              : this.policy.required
                ? `To go ahead, ${again}.`
                : `To go ahead, call ${tool.name} again without dry_run (or with "confirm_token": "${token}").`,
        ].join('\n'),
      meta,
    };
  }

  /** Checks a token and uses it up; what is wrong with it, or undefined when the call may run. */
  private async redeem(
    token: string,
    principal: Principal,
    tool: RegisteredTool,
    fingerprint: string,
    use: TokenUse,
  ): Promise<TokenFault | undefined> {
    const parts = token.split('.');
    if (parts.length !== 3 || !/^\d{1,12}$/.test(parts[0]!)) return 'not-issued';
    const [expiresText, nonce, mac] = parts as [string, string, string];
    const expires = Number(expiresText);
    const expected = this.signature(use, principal, tool.name, fingerprint, expires, nonce);
    // Compared as text: the only encoding accepted is the one issued (base64url decoding would skip stray
    // characters and ignore a last character's spare bits, so that other strings would pass as the token).
    const given = Buffer.from(mac, 'latin1');
    const issued = Buffer.from(b64(expected), 'latin1');
    if (given.length !== issued.length || !timingSafeEqual(given, issued)) return 'other-call';
    if (expires < Math.floor(this.policy.clock.now().getTime() / 1000)) return 'expired';
    let claim;
    try {
      claim = await this.policy.ledger.claim(`confirm:${principal.tenant}:${nonce}`, fingerprint, this.ttl + 60);
    } catch {
      return 'unverifiable';
    }
    return claim.state === 'started' ? undefined : 'used';
  }
}

/** A confirm token the gateway cannot take, in the words the model reads. */
const confirmTokenError = (tool: string, fault: TokenFault): ToolError =>
  fault === 'unverifiable'
    ? tokenUnverifiable()
    : toolError(
        400,
        'INVALID_PARAMETER',
        `The confirm_token ${TOKEN_FAULT[fault]}. Nothing was changed. ${NEW_TOKEN(tool)}`,
        {
          parameter: 'confirm_token',
          expected: `a token from a dry run of exactly this ${tool} call`,
        },
      );

const NEW_TOKEN = (tool: string) => `Call ${tool} with dry_run=true (or without confirm_token) for a new one.`;
