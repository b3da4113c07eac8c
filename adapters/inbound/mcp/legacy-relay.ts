import { randomBytes } from 'node:crypto';
import {
  isJSONRPCRequest,
  type JSONRPCMessage,
  type Transport,
  type TransportSendOptions,
  type WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';

// The 2025-era leg is stateless: each POST gets a fresh server on the SDK's stateless transport. A person's
// approval needs one exchange to span two POSTs: the tools/call, whose answer becomes a stream carrying
// `elicitation/create`, and the client's JSON-RPC response to it, which arrives as a POST of its own. The
// SDK's stateless legacy serving holds nothing between exchanges, and its input_required shim refuses
// there ("per-request legacy serving cannot receive server-to-client requests"), so this module is the
// gateway's own seam:
//
// - RelayTransport wraps the exchange's transport: a request the server sends (elicitation/create, or any
//   other server-to-client request) leaves under a fresh unguessable id, registered in PendingAnswers with
//   the caller it belongs to;
// - the POST that carries the client's response is looked up by that id and the same caller, and handed
//   to the waiting server with the id it chose.
//
// PendingAnswers is this process's part (the exchange's stream is open here). With Redis, an answer posted
// to another instance is forwarded to this one (awaited-answers.ts, ports/answer-relay.ts): no affinity.

interface Pending {
  readonly owner: string;
  readonly tenant: string;
  readonly expires: number;
  readonly deliver: (message: JSONRPCMessage) => void;
}

export interface PendingLimits {
  /** Most answers awaited at once in this process. */
  readonly max: number;
  /** Most awaited by one caller (tenant and principal). */
  readonly perOwner: number;
  /** Most awaited for one tenant, all its callers together (default: a tenth of `max`, at least `perOwner`). */
  readonly perTenant?: number;
}

export const DEFAULT_PENDING_LIMITS: PendingLimits = { max: 1000, perOwner: 16, perTenant: 100 };

/** The error a send meets when no more answers may be awaited (mcp-approval.ts says "retry later"). */
export const TOO_MANY = 'Too many approvals are waiting';

/** Which bound refused an approval: the caller's, its tenant's (workspace) or the gateway's. */
export interface PendingRefusal {
  readonly scope: 'caller' | 'tenant' | 'gateway';
  readonly limit: number;
  /** When to try again: when the first approval holding that bound runs out, at most 30 s (one is often answered sooner). */
  readonly retryAfterSeconds: number;
}

/** What a send throws when an approval cannot wait: the refusal, for the answer's words and Retry-After. */
export class TooManyApprovals extends Error {
  constructor(readonly refusal: PendingRefusal) {
    super(`${TOO_MANY}: ${refusal.scope} ${refusal.limit}, retry in ${refusal.retryAfterSeconds} s.`);
  }
}

const RETRY_AT_MOST_SECONDS = 30;

/** A caller's tenant, from its owner key `<tenant>:<principal>` (a tenant id holds no ":"). */
const tenantOf = (owner: string): string => owner.slice(0, Math.max(0, owner.indexOf(':'))) || owner;

/** Answers awaited from 2025-era clients, by the id their request went out under: bounded in count and time. */
export class PendingAnswers {
  readonly #entries = new Map<string, Pending>();
  readonly #perOwner = new Map<string, number>();
  readonly #perTenant = new Map<string, number>();
  readonly #tenantLimit: number;

  constructor(
    private readonly limits: PendingLimits = DEFAULT_PENDING_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.#tenantLimit = Math.max(limits.perOwner, limits.perTenant ?? Math.floor(limits.max / 10));
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * Registers an awaited answer of `owner` (`<tenant>:<principal>`): the id it goes out under, or which bound
   * refused it. A tenant's callers together may hold at most `perTenant`, so one tenant never fills the
   * gateway's `max` (which stays as the backstop across tenants).
   */
  add(owner: string, ttlMs: number, deliver: (message: JSONRPCMessage) => void): string | PendingRefusal {
    this.sweep();
    const tenant = tenantOf(owner);
    const refused =
      (this.#perOwner.get(owner) ?? 0) >= this.limits.perOwner
        ? this.#refusal('caller', this.limits.perOwner, (p) => p.owner === owner)
        : (this.#perTenant.get(tenant) ?? 0) >= this.#tenantLimit
          ? this.#refusal('tenant', this.#tenantLimit, (p) => p.tenant === tenant)
          : this.#entries.size >= this.limits.max
            ? this.#refusal('gateway', this.limits.max, () => true)
            : undefined;
    if (refused) return refused;
    const id = `tg-${randomBytes(18).toString('base64url')}`;
    this.#entries.set(id, { owner, tenant, expires: this.now() + ttlMs, deliver });
    this.#perOwner.set(owner, (this.#perOwner.get(owner) ?? 0) + 1);
    this.#perTenant.set(tenant, (this.#perTenant.get(tenant) ?? 0) + 1);
    return id;
  }

  /** Approvals waiting for `tenant` now. */
  waitingFor(tenant: string): number {
    return this.#perTenant.get(tenant) ?? 0;
  }

  /** The refusal of one bound, with the time its first approval runs out (one is often answered sooner). */
  #refusal(scope: PendingRefusal['scope'], limit: number, holds: (p: Pending) => boolean): PendingRefusal {
    let first = Infinity;
    for (const p of this.#entries.values()) if (holds(p) && p.expires < first) first = p.expires;
    const seconds = first === Infinity ? 1 : Math.ceil((first - this.now()) / 1000);
    return { scope, limit, retryAfterSeconds: Math.min(RETRY_AT_MOST_SECONDS, Math.max(1, seconds)) };
  }

  /** Hands a posted response to the exchange that awaits it; false when none does (unknown, expired, another caller). */
  answer(message: JSONRPCMessage, owner: string): boolean {
    const id = (message as { id?: unknown }).id;
    if (typeof id !== 'string') return false;
    const pending = this.#entries.get(id);
    if (!pending || pending.owner !== owner || pending.expires < this.now()) return false;
    this.drop(id);
    pending.deliver(message);
    return true;
  }

  /** Stops awaiting `id`; whether it was awaited. */
  drop(id: string): boolean {
    const pending = this.#entries.get(id);
    if (!pending) return false;
    this.#entries.delete(id);
    const left = (this.#perOwner.get(pending.owner) ?? 1) - 1;
    if (left > 0) this.#perOwner.set(pending.owner, left);
    else this.#perOwner.delete(pending.owner);
    const tenantLeft = (this.#perTenant.get(pending.tenant) ?? 1) - 1;
    if (tenantLeft > 0) this.#perTenant.set(pending.tenant, tenantLeft);
    else this.#perTenant.delete(pending.tenant);
    return true;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, pending] of this.#entries) if (pending.expires < now) this.drop(id);
  }
}

/** Whether a posted body is one JSON-RPC response (a client's answer to a server's request). */
export const isPostedResponse = (body: unknown): body is JSONRPCMessage =>
  typeof body === 'object' &&
  body !== null &&
  !Array.isArray(body) &&
  !('method' in body) &&
  'id' in body &&
  ('result' in body || 'error' in body);

/** Where an exchange awaits its answers (AwaitedAnswers: this process, and the shared store when there is one). */
export interface Awaiting {
  /** The id the request goes out under; throws when it cannot be awaited (a bound, the shared store away). */
  await(owner: string, ttlMs: number, deliver: (message: JSONRPCMessage) => void): Promise<string>;
  drop(id: string): void;
}

/**
 * The exchange's transport, with the server's own requests sent under ids from `Awaiting` and their
 * answers delivered back under the server's ids. `onAnswered` runs once the exchange's response is sent.
 */
export class RelayTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  readonly #mine = new Set<string>();

  constructor(
    private readonly inner: WebStandardStreamableHTTPServerTransport,
    private readonly pending: Awaiting,
    private readonly owner: string,
    private readonly ttlMs: number,
    private readonly onAnswered: () => void,
  ) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    await this.inner.start();
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions(versions);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (!isJSONRPCRequest(message)) {
      await this.inner.send(message, options);
      if ('result' in message || 'error' in message) this.onAnswered();
      return;
    }
    const serverId = message.id;
    const id = await this.pending.await(this.owner, this.ttlMs, (answer) =>
      this.onmessage?.({ ...answer, id: serverId } as JSONRPCMessage),
    );
    this.#mine.add(id);
    await this.inner.send({ ...message, id }, options);
  }

  async close(): Promise<void> {
    for (const id of this.#mine) this.pending.drop(id);
    this.#mine.clear();
    await this.inner.close();
  }
}

/** The session id given to a 2025-era client that declared elicitation: it says so on every later request. */
export const ELICITING_SESSION = 'tg-elicit.';
export const elicitingSessionId = (): string => `${ELICITING_SESSION}${randomBytes(16).toString('base64url')}`;
