import ipaddr from 'ipaddr.js';

/**
 * The network an address stands for: IPv4 addresses one by one, IPv6 by their /64 (one household or
 * server gets a whole /64, so counting single IPv6 addresses would let one client rotate past the limit).
 */
export function addressKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  try {
    const parsed = ipaddr.parse(ip);
    if (parsed.kind() === 'ipv6') {
      const v6 = parsed as ipaddr.IPv6;
      if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
      return `${v6.parts
        .slice(0, 4)
        .map((part) => part.toString(16))
        .join(':')}::/64`;
    }
    return parsed.toString();
  } catch {
    return ip;
  }
}
