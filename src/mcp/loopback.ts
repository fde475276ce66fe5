import { isIPv4, isIPv6 } from 'node:net'

/**
 * Whether a socket address is loopback, parsed exactly: 127.0.0.0/8, `::1`, or an IPv4-mapped
 * loopback (`::ffff:127.0.0.1`). A missing address is not loopback. The OAuth endpoints and the
 * sign-in gate ask the socket this, never the `Host` header, which any client can set.
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false
  const v4 = address.toLowerCase().startsWith('::ffff:') ? address.slice(7) : address
  if (isIPv4(v4)) return v4.split('.')[0] === '127'
  return isIPv6(address) && expandV6(address) === '0:0:0:0:0:0:0:1'
}

/** Whether a host name (as in a URL or `Host`, brackets allowed) names loopback: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1')
  return name === 'localhost' || isLoopbackAddress(name)
}

// `::1`, `0::1`, `0:0:0:0:0:0:0:1` are one address; compare them in the long form.
function expandV6(address: string): string {
  const [head, tail = ''] = address.toLowerCase().split('::')
  const left = head ? head.split(':') : []
  const right = address.includes('::') && tail ? tail.split(':') : []
  const fill = address.includes('::') ? Array(8 - left.length - right.length).fill('0') : []
  return [...left, ...fill, ...right].map((part) => String(parseInt(part, 16))).join(':')
}
