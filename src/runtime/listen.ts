import { createServer } from 'node:http'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { RequestListener } from 'node:http'

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
