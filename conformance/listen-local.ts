import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * Listens on `host:port` (0 = a free port): the URL and a close that ends open keep-alive
 * connections first. The one way the kit's proxies (forwarder, drift, record, replay) listen.
 */
export async function listen(server: Server, host = '127.0.0.1', port = 0): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}
