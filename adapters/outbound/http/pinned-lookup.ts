import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import type * as Undici from 'undici';
import type { Agent } from 'undici';
import type { AddressVerdict } from './address-policy.js';

/** Name resolution: every address a host name has (replaceable in tests). */
export type Resolve = (host: string) => Promise<readonly string[]>;

export const systemResolve: Resolve = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** A host whose addresses (or one of them) the policy refuses; the socket is never opened. */
export class AddressRefused extends Error {
  override readonly name = 'AddressRefused';
  constructor(
    readonly host: string,
    readonly reason: string,
  ) {
    super(`${host}: ${reason}`);
  }
}

/** A host name that does not resolve. */
export class HostUnresolved extends Error {
  override readonly name = 'HostUnresolved';
  constructor(readonly host: string) {
    super(`${host} could not be resolved`);
  }
}

/**
 * Resolves a name and checks every address it has. One refused address refuses the host: a name that
 * answers with a public and a private address is how rebinding attacks pick the private one later.
 */
export const resolveChecked = async (
  host: string,
  resolve: Resolve,
  policy: (ip: string) => AddressVerdict,
): Promise<readonly string[]> => {
  let addresses: readonly string[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new HostUnresolved(host);
  }
  if (addresses.length === 0) throw new HostUnresolved(host);
  for (const a of addresses) {
    const v = policy(a);
    if (!v.allowed) throw new AddressRefused(host, v.reason);
  }
  return addresses;
};

/**
 * A `lookup` for net/tls.connect that resolves the name, checks every address and hands only those
 * checked addresses to the socket. The check and the connection use the same answer, so DNS rebinding
 * (public at check time, private at connect time) has no window.
 */
export const checkedLookup = (resolve: Resolve, policy: (ip: string) => AddressVerdict): LookupFunction =>
  ((hostname: string, options: { family?: number | string; all?: boolean }, callback: (...args: unknown[]) => void) => {
    const family = options?.family === 'IPv4' ? 4 : options?.family === 'IPv6' ? 6 : Number(options?.family ?? 0);
    resolveChecked(hostname, resolve, policy).then(
      (all) => {
        const usable = all
          .filter((a) => family === 0 || isIP(a) === family)
          .map((address) => ({ address, family: isIP(address) }));
        if (usable.length === 0) return callback(Object.assign(new HostUnresolved(hostname), { code: 'ENOTFOUND' }));
        if (options?.all) return callback(null, usable);
        return callback(null, usable[0]!.address, usable[0]!.family);
      },
      (e: unknown) => callback(e),
    );
  }) as unknown as LookupFunction;

let undiciModule: Promise<typeof Undici> | undefined;
/** undici, loaded on the first fetch of a caller-given URL rather than with the gateway. */
export const loadUndici = (): Promise<typeof Undici> => (undiciModule ??= import('undici'));

/** An undici Agent whose every connection goes through {@link checkedLookup}. */
export const pinnedAgent = async (o: {
  resolve: Resolve;
  policy: (ip: string) => AddressVerdict;
  connectTimeoutMs: number;
}): Promise<Agent> => {
  const { Agent } = await loadUndici();
  return new Agent({
    connect: { lookup: checkedLookup(o.resolve, o.policy), timeout: o.connectTimeoutMs },
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 10_000,
  });
};
