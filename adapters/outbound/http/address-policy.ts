import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses the gateway may connect to when it fetches a URL a caller gave: global unicast only.
 *
 * Classification is ipaddr.js's (its special-purpose ranges follow the IANA registries), never string
 * tests. An address passes only when ipaddr.js calls its range `unicast`:
 * - IPv4: refused are unspecified 0/8, broadcast, multicast, 240/4, link-local (cloud metadata), loopback,
 *   CGNAT 100.64/10, RFC 1918, 192.0.0/24, the documentation ranges, benchmarking 198.18/15, 6to4 relay,
 *   AS112 and AMT.
 * - IPv6: must also lie in 2000::/3 (IANA's global unicast block), which keeps out `::/8`, site-local
 *   fec0::/10, unique-local, link-local, multicast and the rest; reserved, documentation, benchmarking,
 *   ORCHID, discard and segment-routing ranges are refused by name.
 * - IPv6 forms that carry an IPv4 address (mapped ::ffff:a.b.c.d in any spelling, IPv4-compatible
 *   ::a.b.c.d, SIIT ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16, Teredo
 *   2001::/32) are unwrapped and decided by the IPv4 address they lead to: a packet to them ends up there.
 */
export type AddressVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

const ALLOWED: AddressVerdict = { allowed: true };
const refused = (reason: string): AddressVerdict => ({ allowed: false, reason });

const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parse('2000::');

const v4FromWords = (hi: number, lo: number): ipaddr.IPv4 => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/** The IPv4 addresses an IPv6 address leads to, when it embeds any (empty for a native IPv6 address). */
export const embeddedIPv4 = (a: ipaddr.IPv6): ipaddr.IPv4[] => {
  const p = a.parts;
  const last = () => v4FromWords(p[6]!, p[7]!);
  switch (a.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
    case 'rfc6052': // NAT64 well-known prefix 64:ff9b::/96 (the local-use 64:ff9b:1::/48 is refused in checkV6)
      return [last()];
    case '6to4': // 2002:AABB:CCDD::/48
      return [v4FromWords(p[1]!, p[2]!)];
    case 'teredo': // 2001:0:SERVER:flags:port:~CLIENT
      return [v4FromWords(p[2]!, p[3]!), v4FromWords(~p[6]! & 0xffff, ~p[7]! & 0xffff)];
    default:
      // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks); :: and ::1 are handled by range().
      return p.slice(0, 6).every((w) => w === 0) && a.range() === 'unicast' ? [last()] : [];
  }
};

const checkV4 = (a: ipaddr.IPv4, via?: string): AddressVerdict => {
  const range = a.range();
  if (range === 'unicast') return ALLOWED;
  return refused(via ? `${via} leads to ${a.toString()} (${range})` : `${a.toString()} is ${range}`);
};

const LOCAL_NAT64 = ipaddr.IPv6.parse('64:ff9b:1::');

const checkV6 = (a: ipaddr.IPv6): AddressVerdict => {
  // Local-use NAT64 may put the IPv4 address anywhere (RFC 8215): not global, so never fetched.
  if (a.match(LOCAL_NAT64, 48)) return refused(`${a.toString()} is a local-use NAT64 address`);
  const embedded = embeddedIPv4(a);
  if (embedded.length > 0) {
    for (const v4 of embedded) {
      const v = checkV4(v4, a.toString());
      if (!v.allowed) return v;
    }
    // IPv4-compatible ::a.b.c.d is deprecated and never global, whatever it embeds.
    if (a.range() === 'unicast') return refused(`${a.toString()} is an IPv4-compatible address (deprecated)`);
    return ALLOWED;
  }
  const range = a.range();
  if (range !== 'unicast') return refused(`${a.toString()} is ${range}`);
  if (!a.match(GLOBAL_UNICAST_V6, 3)) return refused(`${a.toString()} is outside global unicast 2000::/3`);
  return ALLOWED;
};

/**
 * IPv6 text in the WHATWG URL parser's canonical hex form. ipaddr.js reads the deprecated `::a.b.c.d` as
 * if it were `::ffff:a.b.c.d`; the URL parser (the one that reads callers' URLs) keeps them apart. The zone
 * id is dropped: it picks an interface, not an address.
 */
const canonicalV6 = (text: string): string => {
  const zone = text.indexOf('%');
  const bare = zone === -1 ? text : text.slice(0, zone);
  return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
};

/**
 * The verdict on one IP address in textual form (as DNS answers or a URL's host give it; brackets and a
 * zone id are tolerated). Anything that does not parse as an IP address is refused.
 */
export const classifyAddress = (ip: string): AddressVerdict => {
  const text = ip.replace(/^\[(.*)\]$/, '$1');
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // IPv4 only in the strict four-part decimal form: DNS answers and normalised URLs never use another.
    if (ipaddr.IPv4.isValidFourPartDecimal(text)) parsed = ipaddr.IPv4.parse(text);
    else if (ipaddr.IPv6.isValid(text)) parsed = ipaddr.IPv6.parse(canonicalV6(text));
    else return refused(`${text} is not an IP address`);
  } catch {
    return refused(`${text} is not an IP address`);
  }
  return parsed.kind() === 'ipv4' ? checkV4(parsed as ipaddr.IPv4) : checkV6(parsed as ipaddr.IPv6);
};

export const isPublicAddress = (ip: string): boolean => classifyAddress(ip).allowed;

/** The opposite of {@link isPublicAddress}: loopback, private, link-local, reserved, or not an address. */
export const isNonPublicAddress = (ip: string): boolean => !isPublicAddress(ip);

/** Whether a string is an IP literal (v4 dotted decimal or v6, brackets allowed), i.e. needs no resolution. */
export const isIpLiteral = (host: string): boolean => {
  const text = host.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
};
