import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { TargetFactory } from './targets.js'
import type { Exchange, Target, Violation } from './types.js'
import { sleep } from './time.js'
import { startForwarder } from './forwarder.js'

/** Validates with Prism's own verdict: the `sl-violations` header `prism proxy` adds. */
export class PrismHeaderContract {
  validate(exchange: Exchange): Violation[] {
    const header = exchange.response.headers['sl-violations']
    if (!header) return []
    const list = JSON.parse(header) as Array<{ location: string[]; message: string; severity: string }>
    // Request-side findings are the point of negative tests; the service's answers are what we check.
    return list.filter((v) => v.location[0] === 'response').map((v) => ({
      location: v.location.join('.'),
      message: v.message,
      severity: v.severity === 'Error' || /status code/.test(v.message) ? 'error' : 'warn',
    }))
  }
}

/**
 * `--contract prism-proxy`: traffic goes through `prism proxy` (one per host), started as
 * `node …/prism proxy … -v warn` so one PID can be killed. Prism's upstream is fixed, so it points
 * at a small forwarder that follows the current scenario's target; scenarios then run one at a time.
 */
export async function startPrismProxy(inner: TargetFactory, openapi: string) {
  let current: Target | null = null
  const forwarders = await Promise.all((['baseUrl', 'apiUrl'] as const).map((host) => startForwarder(() => current?.[host] ?? null)))
  const prisms = await Promise.all(forwarders.map((f) => startPrism(openapi, f.url)))
  const factory: TargetFactory = {
    ...inner,
    describe: `${inner.describe}, through prism proxy`,
    isolated: false,
    async open(scenario) {
      current = await inner.open(scenario)
      return { ...current, baseUrl: prisms[0].url, apiUrl: prisms[1].url }
    },
  }
  return {
    factory,
    contract: new PrismHeaderContract(),
    async close() {
      for (const p of prisms) p.child.kill('SIGTERM')
      await Promise.all(forwarders.map((f) => f.close()))
    },
  }
}

async function startPrism(openapi: string, upstream: string): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort()
  const pkg = createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')
  const bin = join(dirname(pkg), 'dist', 'index.js')
  const child = spawn(process.execPath, [bin, 'proxy', '-h', '127.0.0.1', '-p', String(port), openapi, upstream, '-v', 'warn'], { stdio: ['ignore', 'ignore', 'pipe'] })
  const url = `http://127.0.0.1:${port}`
  // Prism takes 1.5–2 s to start (far more on a busy machine): poll instead of sleeping a fixed time.
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`prism proxy exited with ${child.exitCode}`)
    if (await fetch(url).then(() => true, () => false)) return { child, url }
    await sleep(200)
  }
  child.kill('SIGTERM')
  throw new Error('prism proxy did not become ready within 60 s')
}

/** A free TCP port on 127.0.0.1 (for servers that cannot report an ephemeral port; also used by bench/). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}
