import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import type { AnswerRelay } from '../../../ports/answer-relay.js';
import { isPostedResponse, TooManyApprovals, type PendingAnswers } from './legacy-relay.js';

// The answers 2025-era exchanges await (a person's approval through elicitation/create, or any other request
// the server sends its client), wherever the client's answer arrives. The wait itself, its bounds (per
// caller, per tenant, per process) and its timer are this process's (PendingAnswers): the exchange's stream
// is open here. With a shared store (AnswerRelay, Redis) an answer posted to another instance behind the
// load balancer is forwarded to this one; without it, answers are taken only where they are awaited.

/** Largest answer forwarded between instances (an elicitation's answer is a few hundred bytes). */
export const MAX_FORWARDED_ANSWER_BYTES = 64 * 1024;

/** When to retry an answer, or a call, that met the shared store away or the awaiting instance unreachable. */
export const RELAY_RETRY_SECONDS = 5;

/** The words of what a send throws when the shared store cannot take the awaited answer (mcp-approval.ts). */
export const RELAY_UNAVAILABLE = 'Answers cannot be awaited across instances now';

/** What a send throws when the shared store cannot register the awaited answer: nothing is asked. */
export class RelayUnavailable extends Error {
  constructor(cause: unknown) {
    super(`${RELAY_UNAVAILABLE}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * What became of a posted answer: `taken` (here, or forwarded to the instance that awaits it); `unknown`
 * (nobody awaits that id from this caller); or a refusal the client is told about (`unreachable`: the
 * awaiting instance cannot hear now; `store-unavailable`: the shared store is away; `too-large`).
 */
export type AnswerOutcome = 'taken' | 'unknown' | 'unreachable' | 'store-unavailable' | 'too-large';

/** Whether answers from other instances could have been lost while a call waited (mcp-approval.ts says so). */
export interface AnswersWatch {
  /** A mark taken before the wait. */
  mark(): number;
  /** Whether answers from other instances stopped reaching this process since `mark`. */
  lostSince(mark: number): boolean;
}

export class AwaitedAnswers implements AnswersWatch {
  constructor(
    readonly local: PendingAnswers,
    private readonly relay?: AnswerRelay,
  ) {
    relay?.receive((id, owner, answer) => {
      let message: unknown;
      try {
        message = JSON.parse(answer);
      } catch {
        return;
      }
      if (isPostedResponse(message) && (message as { id?: unknown }).id === id) this.local.answer(message, owner);
    });
  }

  /**
   * Awaits an answer for `owner`: the id the request goes out under. Throws TooManyApprovals past a bound,
   * RelayUnavailable when the shared store cannot register it (then nothing is asked).
   */
  async await(owner: string, ttlMs: number, deliver: (message: JSONRPCMessage) => void): Promise<string> {
    const id = this.local.add(owner, ttlMs, deliver);
    if (typeof id !== 'string') throw new TooManyApprovals(id);
    if (!this.relay) return id;
    try {
      await this.relay.hold(id, owner, ttlMs);
    } catch (error) {
      this.local.drop(id);
      throw new RelayUnavailable(error);
    }
    return id;
  }

  /** A client's posted answer, from `owner`: taken here, forwarded to the instance that awaits it, or refused. */
  async answer(message: JSONRPCMessage, owner: string): Promise<AnswerOutcome> {
    const id = (message as { id?: unknown }).id;
    if (this.local.answer(message, owner)) {
      if (typeof id === 'string') this.relay?.release(id);
      return 'taken';
    }
    // Ids the gateway gives its requests begin "tg-" (PendingAnswers); any other is none of ours.
    if (!this.relay || typeof id !== 'string' || !id.startsWith('tg-')) return 'unknown';
    const serialized = JSON.stringify(message);
    if (Buffer.byteLength(serialized) > MAX_FORWARDED_ANSWER_BYTES) return 'too-large';
    try {
      const forwarded = await this.relay.forward(id, owner, serialized);
      return forwarded === 'delivered' ? 'taken' : forwarded;
    } catch {
      return 'store-unavailable';
    }
  }

  mark(): number {
    return this.relay?.outages() ?? 0;
  }

  lostSince(mark: number): boolean {
    return this.relay !== undefined && this.relay.outages() !== mark;
  }

  /** Stops awaiting `id` (the exchange ended). */
  drop(id: string): void {
    if (this.local.drop(id)) this.relay?.release(id);
  }
}
