import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/*
 * Where the server may send requests a user chose the address of (webhooks, push endpoints):
 * public hosts only — no SSRF into our own network. Checked when the address is saved (its host)
 * and again before every send (DNS answers can change).
 */

const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
PRIVATE.addSubnet('::', 128, 'ipv6');
PRIVATE.addSubnet('::1', 128, 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');
PRIVATE.addSubnet('fe80::', 10, 'ipv6');

/** An IP address of a private, loopback, link-local or unspecified range (v4 or v6). */
export const isPrivateIp = (ip: string) => PRIVATE.check(ip, isIP(ip) === 6 ? 'ipv6' : 'ipv4');

/** The host of a URL without IPv6 brackets. */
export const hostOf = (u: URL) => u.hostname.replace(/^\[|\]$/g, '');

/** The URL names a private host by itself (localhost, a private IP literal); names are resolved only by resolvesPublic. */
export function namesPrivateHost(u: URL): boolean {
  const h = hostOf(u);
  return h === 'localhost' || h.endsWith('.localhost') || (isIP(h) !== 0 && isPrivateIp(h));
}

/** Every address the URL's host resolves to is public (an IP literal: itself). */
export async function resolvesPublic(url: string): Promise<boolean> {
  const h = hostOf(new URL(url));
  if (isIP(h)) return !isPrivateIp(h);
  const addrs = await lookup(h, { all: true });
  return addrs.length > 0 && addrs.every((a) => !isPrivateIp(a.address));
}
