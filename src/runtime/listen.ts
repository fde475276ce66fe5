import { createServer } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import { BlockList, isIP } from 'node:net'
import type { AddressInfo } from 'node:net'
import type { RequestListener } from 'node:http'
import type { Duplex } from 'node:stream'
import { SandboxError, invalidRequest } from '../domain/errors.js'
import { newRequestId, requestIdOf, REQUEST_ID_HEADER } from '../support/request-id.js'
import { redactText } from '../support/redact.js'

export interface Listening {
  server: Server
  url: string
  close(): Promise<void>
}

/** Listens on `host:port` (0 = ephemeral) and resolves with the URL; close() drops keep-alive sockets. */
export function listen(handler: RequestListener, host: string, port: number): Promise<Listening> {
  return new Promise((resolve, reject) => {
    // Node's own refusal of a missing Host is a bare, bodiless 400: checked in `hostRequired` instead.
    const server = createServer({ requireHostHeader: false }, hostRequired(handler))
    server.keepAliveTimeout = 5_000
    server.on('clientError', answerClientError)
    server.on('checkExpectation', answerExpectation)
    server.on('connect', answerConnect)
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      const { port: bound } = server.address() as AddressInfo
      const shownHost = host.includes(':') ? `[${host}]` : host
      resolve({
        server,
        url: `http://${shownHost}:${bound}`,
        close: () => new Promise<void>((done) => {
          server.close(() => done())
          server.closeAllConnections()
        }),
      })
    })
  })
}

// 127.0.0.0/8 and ::1; IPv4-mapped IPv6 (::ffff:127.x.y.z) is checked against the IPv4 subnet.
const LOOPBACK = new BlockList()
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK.addAddress('::1', 'ipv6')

/**
 * Loopback hosts, where the control plane may run without an admin token: `localhost`, an IPv4
 * address in 127.0.0.0/8, `::1` or `::ffff:127.x.y.z` (brackets allowed). Addresses are parsed
 * exactly, so a host name such as `127.0.0.1.example.com` is not loopback.
 */
export function isLoopback(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1')
  if (name === 'localhost') return true
  const family = isIP(name)
  return family !== 0 && LOOPBACK.check(name, family === 4 ? 'ipv4' : 'ipv6')
}

/**
 * Requests Node's HTTP parser refuses (oversized headers, garbage) never reach express; answer them
 * with the same JSON error body as everything else instead of Node's bare status line. A `HEAD`
 * answer carries no body; the method is read from the packet that failed, so a HEAD whose request
 * line came in an earlier packet than the overflow still gets the body (docs/security.md).
 */
function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy()
    return
  }
  const refusal = error.code === 'HPE_HEADER_OVERFLOW' ? new SandboxError('HEADERS_TOO_LARGE') : invalidRequest('Malformed HTTP request.')
  // Unparsed bytes have no header to read a client's id from: the answer gets a new one.
  const id = newRequestId()
  const body = JSON.stringify({ ...refusal.toBody(), request_id: id })
  const reason = refusal.status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'
  const head = isHead(error.rawPacket)
  socket.end(`HTTP/1.1 ${refusal.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${REQUEST_ID_HEADER}: ${id}\r\nConnection: close\r\n\r\n${head ? '' : body}`)
}

function isHead(packet: Buffer | undefined): boolean {
  return packet !== undefined && packet.subarray(0, 5).toString('latin1') === 'HEAD '
}

/**
 * An HTTP/1.1 request without `Host` (RFC 9112 §3.2) is 400 with the JSON error body, as every
 * other refusal (issue 36: Node's own answer had no body and no content type). HTTP/1.0 may omit it.
 */
function hostRequired(handler: RequestListener): RequestListener {
  return (req, res) => {
    if (req.headers.host !== undefined || req.httpVersion !== '1.1') return handler(req, res)
    const refusal = invalidRequest('An HTTP/1.1 request needs a Host header.')
    const id = requestIdOf(req)
    const body = JSON.stringify({ ...refusal.toBody(), request_id: id })
    res.writeHead(refusal.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), [REQUEST_ID_HEADER]: id, Connection: 'close' })
    res.end(req.method === 'HEAD' ? undefined : body)
  }
}

/** `CONNECT` (a proxy tunnel) is refused with the JSON error body; Node would close the socket without an answer. */
function answerConnect(req: IncomingMessage, socket: Duplex): void {
  const refusal = new SandboxError('METHOD_NOT_ALLOWED', { method: 'CONNECT', path: redactText(String(req.url).slice(0, 200)), allowed: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] })
  const id = requestIdOf(req)
  const body = JSON.stringify({ ...refusal.toBody(), request_id: id })
  socket.end(`HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${REQUEST_ID_HEADER}: ${id}\r\nConnection: close\r\n\r\n${body}`)
}

/**
 * An `Expect` other than `100-continue` is 417 with the JSON error body (Node would send a bare
 * 417); nothing else of the request is looked at. Node drops the body of a HEAD answer itself.
 */
function answerExpectation(req: IncomingMessage, res: ServerResponse): void {
  const refusal = new SandboxError('EXPECTATION_FAILED')
  const id = requestIdOf(req)
  const body = JSON.stringify({ ...refusal.toBody(), request_id: id })
  res.writeHead(refusal.status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), [REQUEST_ID_HEADER]: id, Connection: 'close' })
  res.end(body)
}
