/**
 * What a forwarded answer met: `delivered` to the instance that awaits it; `unknown` (no such request, it
 * ran out, or another caller's); `unreachable` (awaited, but that instance cannot hear now: it stopped, or
 * it is reconnecting to the shared store; the awaited entry is kept, so the same answer may be sent again).
 */
export type Forwarded = 'delivered' | 'unknown' | 'unreachable';

/**
 * Carries a client's answer to a request the server sent it (an MCP `elicitation/create`, or any other
 * server-to-client request) to the instance whose exchange awaits it, when the answer arrives at another
 * instance behind a load balancer. Nothing in it knows what the request asked.
 *
 * The shared store's implementation (Redis) rejects when the store cannot be reached: the caller says so
 * to the client, it never waits on it. Without one, answers stay in the process (one instance).
 */
export interface AnswerRelay {
  /**
   * Says that this process awaits the answer to `id` for `owner` (tenant and principal), for `ttlMs`.
   * Rejects when answers from other instances could not reach it (the store or this process's
   * subscription is unavailable).
   */
  hold(id: string, owner: string, ttlMs: number): Promise<void>;
  /** Hands `answer` (a serialized JSON-RPC response) for `id`, posted by `owner`, to the instance that awaits it. */
  forward(id: string, owner: string, answer: string): Promise<Forwarded>;
  /** Forgets `id` (answered here, or given up). Best effort: never rejects; the entry runs out anyway. */
  release(id: string): void;
  /**
   * How many times answers from other instances stopped reaching this process (its subscription was lost).
   * Compared before and after a wait, it tells whether an answer may have been lost during it.
   */
  outages(): number;
  /** Where answers forwarded to this process go (one receiver; set before the first `hold`). */
  receive(onAnswer: (id: string, owner: string, answer: string) => void): void;
  /** Stops listening; nothing of it keeps the process alive afterwards. */
  close(): Promise<void>;
}
