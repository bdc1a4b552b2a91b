import { BlockList, isIP } from 'node:net';

/**
 * Which webhook URLs are acceptable, and the SSRF guard over the addresses a host resolves to.
 * Pure: the caller resolves the host (dns.lookup with `all: true`) and passes every address, at
 * configuration time and again when connecting (so a DNS answer that changes after the check,
 * "DNS rebinding", is caught on the connection that would use it).
 */
export interface UrlPolicy {
  /** config.webhooks.requireHttps: only https URLs (production). */
  requireHttps: boolean;
  /** config.webhooks.allowPrivateTargets: private, loopback and link-local targets allowed (development). */
  allowPrivateTargets: boolean;
}

export type UrlCheck = { ok: true; url: URL } | { ok: false; message: string };

export const MAX_URL_LENGTH = 2048;

/** Syntax and scheme of a webhook URL. http is accepted only when https is not required (development). */
export function checkWebhookUrl(raw: string, policy: Pick<UrlPolicy, 'requireHttps'>): UrlCheck {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, message: `webhookUrl aceita no máximo ${MAX_URL_LENGTH} caracteres.` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: 'webhookUrl não é uma URL absoluta válida.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, message: 'webhookUrl deve usar https.' };
  if (policy.requireHttps && url.protocol !== 'https:') return { ok: false, message: 'webhookUrl deve usar https.' };
  if (url.username || url.password) return { ok: false, message: 'webhookUrl não pode conter usuário ou senha.' };
  if (url.hash) return { ok: false, message: 'webhookUrl não pode conter fragmento (#).' };
  if (!url.hostname) return { ok: false, message: 'webhookUrl sem host.' };
  return { ok: true, url };
}

/** Host as the resolver wants it: IPv6 literals lose their brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

const blocked = new BlockList();
// IPv4: RFC 6890 special-purpose ranges that must never be reached from the platform.
blocked.addSubnet('0.0.0.0', 8, 'ipv4'); // "this network"
blocked.addSubnet('10.0.0.0', 8, 'ipv4'); // private
blocked.addSubnet('100.64.0.0', 10, 'ipv4'); // CGNAT shared space
blocked.addSubnet('127.0.0.0', 8, 'ipv4'); // loopback
blocked.addSubnet('169.254.0.0', 16, 'ipv4'); // link-local, cloud metadata 169.254.169.254
blocked.addSubnet('172.16.0.0', 12, 'ipv4'); // private
blocked.addSubnet('192.0.0.0', 24, 'ipv4'); // IETF protocol assignments
blocked.addSubnet('192.168.0.0', 16, 'ipv4'); // private
blocked.addSubnet('198.18.0.0', 15, 'ipv4'); // benchmarking
blocked.addSubnet('224.0.0.0', 4, 'ipv4'); // multicast
blocked.addSubnet('240.0.0.0', 4, 'ipv4'); // reserved, broadcast
// IPv6
blocked.addAddress('::', 'ipv6'); // unspecified
blocked.addAddress('::1', 'ipv6'); // loopback
blocked.addSubnet('fe80::', 10, 'ipv6'); // link-local
blocked.addSubnet('fc00::', 7, 'ipv6'); // unique local (ULA), includes AWS metadata fd00:ec2::254
blocked.addSubnet('ff00::', 8, 'ipv6'); // multicast

/** IPv4 embedded in an IPv6 address (::ffff:a.b.c.d mapped, ::a.b.c.d compatible, 64:ff9b::/96 NAT64), or null. */
function embeddedIpv4(address: string): string | null {
  const m = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return m[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** Whether an address is private, loopback, link-local, ULA, CGNAT, metadata or otherwise not public. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return blocked.check(v4, 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true; // not an address at all: refuse rather than guess
}

export type AddressCheck = { ok: true } | { ok: false; address: string | null; message: string };

/** The SSRF guard: every resolved address must be public unless private targets are allowed. */
export function checkResolvedAddresses(addresses: readonly string[], allowPrivateTargets: boolean): AddressCheck {
  if (addresses.length === 0) return { ok: false, address: null, message: 'Host do webhookUrl não resolve para nenhum endereço.' };
  if (allowPrivateTargets) return { ok: true };
  const bad = addresses.find(isNonPublicAddress);
  if (bad !== undefined) return { ok: false, address: bad, message: `webhookUrl resolve para endereço não público (${bad}).` };
  return { ok: true };
}
