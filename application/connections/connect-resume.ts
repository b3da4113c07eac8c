import * as t from 'io-ts';
import { E } from '../../domain/shared/fp.js';
import { VENDORS, type Vendor } from '../../ports/connection-store.js';
import type { Sealer } from './connect-flow.js';

// The 2026-07-28 retry of a call that asked its person to connect (issue 43) comes back with the requestState
// the gateway gave it. That state is sealed (the connection storage's sealer, a key of its own purpose) and
// names the caller (tenant and principal), the vendor, an expiry, and the approval a person gave the call, if
// any (carried across the wait): a state forged, altered, expired or sent by another caller is refused.

/** How long a connect requestState is good for: the person accepts, then the client retries. */
export const RESUME_TTL_MS = 15 * 60 * 1000;
/** Every connect requestState starts with this, sealed or not (so a forged one is recognised and refused). */
export const RESUME_PREFIX = 'tg-connect:';

const VendorName = t.keyof(Object.fromEntries(VENDORS.map((v) => [v, null])) as Record<Vendor, null>);
const Resume = t.strict({
  typ: t.literal('resume'),
  t: t.string,
  p: t.string,
  v: VendorName,
  /** the carried approval token, '' for none */
  a: t.string,
  e: t.number,
});

/** Who retries: the caller the state was issued to. */
export interface Resumer {
  readonly tenant: string;
  readonly principalId: string;
}

/** What a genuine state of this caller says; or why it is refused (words for the caller). */
export type Resumed = { readonly vendor: Vendor; readonly approval?: string } | { readonly refused: string };

export class ConnectResume {
  constructor(
    private readonly sealer: Sealer,
    private readonly nowMs: () => number,
  ) {}

  seal(caller: Resumer, vendor: Vendor, approval: string | undefined): string {
    const value: t.TypeOf<typeof Resume> = {
      typ: 'resume',
      t: caller.tenant,
      p: caller.principalId,
      v: vendor,
      a: approval ?? '',
      e: this.nowMs() + RESUME_TTL_MS,
    };
    return `${RESUME_PREFIX}${this.sealer.seal('connect-resume', JSON.stringify(value))}`;
  }

  /** A state that starts with RESUME_PREFIX: the vendor and carried approval, or why it is refused. */
  open(caller: Resumer, state: string): Resumed {
    const sealed = state.slice(RESUME_PREFIX.length);
    const plain = sealed.length <= 8192 ? this.sealer.open('connect-resume', sealed) : undefined;
    let decoded: ReturnType<typeof Resume.decode> | undefined;
    try {
      decoded = plain === undefined ? undefined : Resume.decode(JSON.parse(plain));
    } catch {
      decoded = undefined;
    }
    if (!decoded || E.isLeft(decoded))
      return { refused: 'This requestState was not issued by the gateway (it is forged or altered).' };
    const r = decoded.right;
    if (r.t !== caller.tenant || r.p !== caller.principalId)
      return { refused: 'This requestState was issued to another caller: it works only for the call that got it.' };
    if (r.e < this.nowMs()) return { refused: 'This requestState expired (15 minutes).' };
    return { vendor: r.v, ...(r.a ? { approval: r.a } : {}) };
  }
}
