import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { RequestListener } from 'node:http'
import type { Duplex } from 'node:stream'
import { SandboxError, invalidRequest } from '../domain/errors.js'

export interface Listening {
  server: Server
  url: string
  close(): Promise<void>
}

/** Listens on `host:port` (0 = ephemeral) and resolves with the URL; close() drops keep-alive sockets. */
export function listen(handler: RequestListener, host: string, port: number): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = createServer(handler)
    server.keepAliveTimeout = 5_000
    server.on('clientError', answerClientError)
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

/** Loopback hosts, where the control plane may run without an admin token. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.')
}

/**
 * Requests Node's HTTP parser refuses (oversized headers, garbage) never reach express; answer them
 * with the same JSON error body as everything else instead of Node's bare status line.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy()
    return
  }
  const refusal = error.code === 'HPE_HEADER_OVERFLOW' ? new SandboxError('HEADERS_TOO_LARGE') : invalidRequest('Malformed HTTP request.')
  const body = JSON.stringify(refusal.toBody())
  const reason = refusal.status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'
  socket.end(`HTTP/1.1 ${refusal.status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
}
