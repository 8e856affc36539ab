// Whether an address is on the public internet: the check that keeps a fetched link from
// reaching the server's own network (loopback, private ranges, link-local and cloud metadata
// addresses, and their IPv4-mapped, NAT64 and 6to4 forms). Only ipaddr.js's 'unicast' range
// passes: everything it names as special (private, reserved, multicast ...) is refused.
import ipaddr from 'ipaddr.js'

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false
  let parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6
    // ::ffff:10.0.0.1 is 10.0.0.1 to the network stack.
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address()
  }
  return parsed.range() === 'unicast'
}
