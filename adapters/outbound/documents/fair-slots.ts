// Slots (the document readers) shared by every tenant, handed out fairly. Each owner (a tenant) may hold at
// most `perOwner` slots at once and have at most `perOwnerWaiting` requests waiting; the totals stay bounded
// by `slots` and `waiting` as a backstop. Waiting requests are served round-robin between owners, not in the
// order they came: a tenant with a long backlog gets one slot in turn like every other tenant, so another
// tenant's request waits for at most one turn, not for the whole backlog.

export interface FairSlotLimits {
  /** Slots in all (the readers). */
  readonly slots: number;
  /** Most slots one owner holds at once. */
  readonly perOwner: number;
  /** Requests that may wait in all. */
  readonly waiting: number;
  /** Requests one owner may have waiting. */
  readonly perOwnerWaiting: number;
}

/** Why a request was refused at once: the owner's own share of the waiting line is full, or the whole line. */
export interface SlotRefusal {
  readonly scope: 'owner' | 'all';
  /** The bound reached: the owner's share (scope owner) or the whole line's (scope all). */
  readonly limit: number;
}

/** Gives the slot back; call once, when the work ends. */
export type Release = () => void;

interface Waiter {
  readonly grant: (release: Release | undefined) => void;
}

export class FairSlots {
  readonly #held = new Map<string, number>();
  /** Owners with requests waiting, and their requests in the order they came. */
  readonly #lines = new Map<string, Waiter[]>();
  /** When each owner holding or awaiting a slot last got one (a count of slots handed out): turns go to the oldest. */
  readonly #servedAt = new Map<string, number>();
  #handedOut = 0;
  #inUse = 0;
  #waiting = 0;

  constructor(readonly limits: FairSlotLimits) {}

  /** Slots in use now. */
  get inUse(): number {
    return this.#inUse;
  }

  /** Requests waiting now. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Requests `owner` has waiting now. */
  waitingFor(owner: string): number {
    return this.#lines.get(owner)?.length ?? 0;
  }

  /**
   * A slot for `owner`: a refusal at once when its share of the line (or the whole line) is full, else the
   * wait for a slot, which ends with the release function, or undefined when `signal` aborts it first.
   */
  enter(owner: string, signal?: AbortSignal): SlotRefusal | Promise<Release | undefined> {
    if (this.#mayTake(owner)) return Promise.resolve(this.#take(owner));
    const line = this.#lines.get(owner);
    if (this.#waiting >= this.limits.waiting) return { scope: 'all', limit: this.limits.waiting };
    if ((line?.length ?? 0) >= this.limits.perOwnerWaiting)
      return { scope: 'owner', limit: this.limits.perOwnerWaiting };
    if (signal?.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        grant: (release) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const mine = this.#lines.get(owner);
        const at = mine?.indexOf(waiter) ?? -1;
        if (at < 0) return;
        mine!.splice(at, 1);
        this.#waiting--;
        if (mine!.length === 0) this.#lines.delete(owner);
        this.#forget(owner);
        resolve(undefined);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (line) line.push(waiter);
      else this.#lines.set(owner, [waiter]);
      this.#waiting++;
    });
  }

  #mayTake(owner: string): boolean {
    return this.#inUse < this.limits.slots && (this.#held.get(owner) ?? 0) < this.limits.perOwner;
  }

  #take(owner: string): Release {
    this.#inUse++;
    this.#held.set(owner, (this.#held.get(owner) ?? 0) + 1);
    this.#servedAt.set(owner, ++this.#handedOut);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#inUse--;
      const left = (this.#held.get(owner) ?? 1) - 1;
      if (left > 0) this.#held.set(owner, left);
      else this.#held.delete(owner);
      this.#forget(owner);
      this.#serve();
    };
  }

  /** An owner that neither holds nor awaits a slot leaves nothing behind. */
  #forget(owner: string): void {
    if (!this.#held.has(owner) && !this.#lines.has(owner)) this.#servedAt.delete(owner);
  }

  /** Hands free slots to waiting owners in turn: of those that may take one, the one served longest ago. */
  #serve(): void {
    while (this.#inUse < this.limits.slots) {
      let next: string | undefined;
      let oldest = Infinity;
      for (const owner of this.#lines.keys()) {
        const at = this.#servedAt.get(owner) ?? 0;
        if (at < oldest && (this.#held.get(owner) ?? 0) < this.limits.perOwner) {
          next = owner;
          oldest = at;
        }
      }
      if (next === undefined) return;
      const line = this.#lines.get(next)!;
      const waiter = line.shift()!;
      this.#waiting--;
      if (line.length === 0) this.#lines.delete(next);
      waiter.grant(this.#take(next));
    }
  }
}
