import type { CallGuard } from '../../../ports/authenticator.js';

const ADMITTED = Promise.resolve({ ok: true as const });

/** The call guard until rate limits and idempotency arrive: every authorised call runs. */
export class AllowAllGuard implements CallGuard {
  admit() {
    return ADMITTED;
  }
}
