import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a Client ID Metadata Document may be fetched from (client-id-documents.ts).
 * The public internet only: never a private, loopback, link-local, CGNAT, multicast, reserved or
 * documentation address — nor one of those wrapped in an IPv6 transition form (issue #58.7). On a
 * network with NAT64 or 6to4, `64:ff9b::7f00:1` or `2002:7f00:1::` reach 127.0.0.1 through the
 * translator; so the IPv4 address such a form embeds is decoded and judged as itself. Forms that
 * are deprecated or only mean something on the local network (IPv4-compatible `::a.b.c.d`,
 * site-local `fec0::/10`, local-use NAT64, Teredo) are refused whatever they embed.
 * IANA's special-purpose registries: https://www.iana.org/assignments/iana-ipv4-special-registry/
 * and https://www.iana.org/assignments/iana-ipv6-special-registry/
 */
const IPV4_BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 3],
] as const)
  IPV4_BLOCKED.addSubnet(net, prefix, 'ipv4');

/** IPv6 ranges refused whatever follows (prefix as groups of 16 bits, length in bits), and why. */
const IPV6_REFUSED: Array<[groups: number[], bits: number, why: string]> = [
  [[0x64, 0xff9b, 0x1], 48, 'a local-use NAT64 address (64:ff9b:1::/48), which reaches the local network'],
  [[0x100], 64, 'a discard-only address (100::/64)'],
  [[0x2001], 23, 'an IETF protocol address (2001::/23: Teredo, ORCHID, benchmarking)'],
  [[0x2001, 0xdb8], 32, 'a documentation address (2001:db8::/32)'],
  [[0x3fff], 20, 'a documentation address (3fff::/20)'],
  [[0x5f00], 16, 'a segment routing address (5f00::/16)'],
  [[0xfc00], 7, 'a unique local (private) address (fc00::/7)'],
  [[0xfe80], 10, 'a link-local address (fe80::/10)'],
  [[0xfec0], 10, 'a site-local address (fec0::/10, deprecated), which reaches the local network'],
  [[0xff00], 8, 'a multicast address (ff00::/8)'],
];

/** Transition forms whose embedded IPv4 address is judged as itself: prefix, length, where the IPv4 sits (group index). */
const IPV6_EMBEDDING: Array<[groups: number[], bits: number, at: number, form: string]> = [
  [[0, 0, 0, 0, 0, 0xffff], 96, 6, 'an IPv4-mapped address (::ffff:0:0/96)'],
  [[0, 0, 0, 0, 0xffff, 0], 96, 6, 'an IPv4-translated address (::ffff:0:0:0/96)'],
  [[0x64, 0xff9b, 0, 0, 0, 0], 96, 6, 'a NAT64 address (64:ff9b::/96)'],
  [[0x2002], 16, 1, 'a 6to4 address (2002::/16)'],
];

/**
 * Why a document may not be fetched from `address` (an IP literal), or undefined when it may.
 * `allowLoopback` (`mcp --allow-loopback-client-ids`, tests) lets plain 127.0.0.0/8 and ::1 through,
 * never a transition form of them.
 */
export function refusedAddress(address: string, allowLoopback = false): string | undefined {
  const family = isIP(address);
  if (family === 4) return refusedIPv4(address, allowLoopback);
  if (family !== 6) return 'not an IP address';
  const groups = ipv6Groups(address);
  if (groups.every((g, i) => g === (i === 7 ? 1 : 0))) return allowLoopback ? undefined : 'a loopback address (::1)';
  if (groups.every((g) => g === 0)) return 'the unspecified address (::)';
  for (const [prefix, bits, at, form] of IPV6_EMBEDDING) {
    if (!matches(groups, prefix, bits)) continue;
    const v4 = `${groups[at]! >> 8}.${groups[at]! & 0xff}.${groups[at + 1]! >> 8}.${groups[at + 1]! & 0xff}`;
    const inner = refusedIPv4(v4, false);
    return inner ? `${form} of ${v4}, ${inner}` : undefined;
  }
  // ::a.b.c.d (RFC 4291 §2.5.5.1, deprecated): no translator is meant to carry it anywhere public.
  if (matches(groups, [0, 0, 0, 0, 0, 0], 96)) return 'an IPv4-compatible address (::/96, deprecated)';
  for (const [prefix, bits, why] of IPV6_REFUSED) if (matches(groups, prefix, bits)) return why;
  return undefined;
}

function refusedIPv4(address: string, allowLoopback: boolean): string | undefined {
  if (!IPV4_BLOCKED.check(address, 'ipv4')) return undefined;
  if (address.startsWith('127.')) return allowLoopback ? undefined : 'a loopback address';
  return 'a private or reserved address';
}

/** Whether the first `bits` of the address equal the prefix's. */
function matches(groups: number[], prefix: number[], bits: number): boolean {
  for (let i = 0; i * 16 < bits; i++) {
    const take = Math.min(16, bits - i * 16);
    const mask = (0xffff << (16 - take)) & 0xffff;
    if (((groups[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** The eight 16-bit groups of an IPv6 literal (`::` expanded, a trailing dotted IPv4 read as two groups). */
export function ipv6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '').toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return [...front, ...new Array(8 - front.length - back.length).fill(0), ...back];
}
