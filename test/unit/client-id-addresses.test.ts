import { describe, expect, it } from 'vitest';
import { ipv6Groups, refusedAddress } from '../../src/mcp/http/address-policy.js';

/**
 * Issue #58.7: a Client ID Metadata Document is never fetched from an address that reaches the
 * local network, IPv6 transition forms included — the embedded IPv4 address is decoded and judged.
 */
describe('addresses a client id document may come from', () => {
  it.each([
    ['64:ff9b::7f00:1', /NAT64 .* of 127\.0\.0\.1, a loopback address/],
    ['64:ff9b::a00:1', /NAT64 .* of 10\.0\.0\.1, a private/],
    ['64:ff9b::192.168.1.1', /NAT64 .* of 192\.168\.1\.1, a private/],
    ['64:ff9b:1::808:808', /local-use NAT64/],
    ['2002:7f00:1::', /6to4 .* of 127\.0\.0\.1, a loopback/],
    ['2002:a9fe:a9fe::1', /6to4 .* of 169\.254\.169\.254, a private/],
    ['2002:c0a8:101:1::1', /6to4 .* of 192\.168\.1\.1/],
    ['::127.0.0.1', /IPv4-compatible .*deprecated/],
    ['::7f00:1', /IPv4-compatible/],
    ['::8.8.8.8', /IPv4-compatible/],
    ['::ffff:0:7f00:1', /IPv4-translated .* of 127\.0\.0\.1/],
    ['::ffff:0:a00:1', /IPv4-translated .* of 10\.0\.0\.1/],
    ['::ffff:127.0.0.1', /IPv4-mapped .* of 127\.0\.0\.1/],
    ['::ffff:7f00:1', /IPv4-mapped .* of 127\.0\.0\.1/],
    ['::ffff:100.64.0.1', /IPv4-mapped .* of 100\.64\.0\.1/],
    ['fec0::1', /site-local/],
    ['fef0::1', /site-local/],
    ['fe80::1%eth0', /link-local/],
    ['fd00::1', /unique local/],
    ['ff02::1', /multicast/],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /Teredo/],
    ['2001:db8::1', /documentation/],
    ['100::1', /discard/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['127.0.0.1', /loopback/],
    ['10.1.2.3', /private/],
    ['192.0.2.1', /private or reserved/],
    ['240.0.0.1', /reserved/],
  ])('%s is refused (%s)', (address, why) => {
    expect(refusedAddress(address)).toMatch(why);
  });

  it.each(['8.8.8.8', '2606:4700:4700::1111', '64:ff9b::808:808', '2002:808:808::1', '::ffff:8.8.8.8', '::ffff:0:808:808', '2a00:1450:4001:82a::200e'])(
    '%s (public, or a transition form of a public IPv4 address) may be fetched from',
    (address) => {
      expect(refusedAddress(address)).toBeUndefined();
    },
  );

  it('--allow-loopback-client-ids lets 127.0.0.0/8 and ::1 through, never a transition form of them', () => {
    expect(refusedAddress('127.0.0.1', true)).toBeUndefined();
    expect(refusedAddress('::1', true)).toBeUndefined();
    for (const form of ['::ffff:127.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::', '::127.0.0.1', '::ffff:0:7f00:1'])
      expect(refusedAddress(form, true), form).toBeDefined();
    expect(refusedAddress('10.0.0.1', true)).toMatch(/private/);
  });

  it('reads IPv6 literals whole: ::, dotted IPv4 tails, zone ids', () => {
    expect(ipv6Groups('64:ff9b::127.0.0.1')).toEqual([0x64, 0xff9b, 0, 0, 0, 0, 0x7f00, 1]);
    expect(ipv6Groups('fe80::1%eth0')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(ipv6Groups('2002:7f00:1::')).toEqual([0x2002, 0x7f00, 1, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
