import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseAllDocuments } from 'yaml'
import type { Child } from './processes.js'
import { freePort } from '../../conformance/prism-proxy.js'
import { firstLine, startChild, waitForStatus } from './processes.js'

/** The one key of fixtures/worlds/bench.yaml (public, sandbox-only). */
export const BENCH_KEY = 'svc_test_benchOwner0000000000000000000000'
export const AUTH = { authorization: `Bearer ${BENCH_KEY}` }

export interface RunningServer {
  child: Child
  pid: number
  baseUrl: string
  apiUrl: string
  /** ms from spawn to the first 200 on the readiness probe. */
  startMs: number
  /** X-Sandbox-Admin for the control plane (the banner's `admin_token`); null for Prism. */
  adminToken: string | null
  stop(): Promise<void>
}

/**
 * Starts the compiled sandbox (`node dist/src/main.js serve`) on ephemeral loopback ports, parses the
 * JSON banner for its URLs and waits for the first 200 on `GET /v1/me`.
 */
export async function startSandbox(options: { root: string; state: string; world?: string; extraArgs?: string[]; nodeArgs?: string[] }): Promise<RunningServer> {
  const main = join(options.root, 'dist/src/main.js')
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`)
  const started = performance.now()
  const child = startChild(process.execPath, [
    ...(options.nodeArgs ?? []), main, 'serve', '--host', '127.0.0.1', '--port', '0', '--api-port', '0', '--state', options.state,
    '--world', options.world ?? 'bench', '--log-level', 'warn', '--json', ...(options.extraArgs ?? []),
  ], { cwd: options.root })
  try {
    const banner = JSON.parse(await firstLine(child)) as { base_url: string; api_url: string; admin_token?: string | null }
    const ready = await waitForStatus({ url: `${banner.api_url}/v1/me`, child, init: { headers: AUTH } })
    return { child, pid: child.pid, baseUrl: banner.base_url, apiUrl: banner.api_url, adminToken: banner.admin_token ?? null, startMs: ready - started, stop: () => child.stop() }
  } catch (error) {
    await child.stop(500)
    throw error
  }
}

/**
 * The contract Prism mocks: conformance/openapi.yaml when it exists and parses as one OpenAPI
 * document, else a minimal stand-in (with the reason), so the bench runs while the contract is edited.
 */
export function prismSpec(root: string): { path: string; fallback: boolean; reason?: string } {
  const contract = join(root, 'conformance/openapi.yaml')
  const fallback = (reason: string) => ({ path: join(root, 'bench/fallback-openapi.yaml'), fallback: true, reason })
  if (!existsSync(contract)) return fallback('conformance/openapi.yaml does not exist yet')
  const docs = parseAllDocuments(readFileSync(contract, 'utf8'))
  const doc = Array.isArray(docs) ? docs : []
  if (doc.length !== 1 || doc[0].errors.length > 0) return fallback('conformance/openapi.yaml is not one valid YAML document')
  const parsed = doc[0].toJS() as { openapi?: string; paths?: Record<string, unknown> }
  if (!parsed?.openapi || !parsed.paths?.['/v1/campaigns']) return fallback('conformance/openapi.yaml has no /v1/campaigns yet')
  return { path: contract, fallback: false }
}

/**
 * Starts `prism mock` as one node process (no npx wrapper, so one PID to kill) with logging at
 * warn, on a free loopback port, and waits for the first 200 on `GET /v1/campaigns`.
 */
export async function startPrism(options: { root: string; spec: string }): Promise<RunningServer> {
  const port = await freePort()
  const bin = join(options.root, 'node_modules/.bin/prism')
  const started = performance.now()
  const child = startChild(process.execPath, [bin, 'mock', options.spec, '-h', '127.0.0.1', '-p', String(port), '-v', 'warn'], { cwd: options.root })
  child.proc.stdout?.resume()
  const url = `http://127.0.0.1:${port}`
  try {
    const ready = await waitForStatus({ url: `${url}/v1/campaigns`, child, init: { headers: AUTH }, timeoutMs: 60_000 })
    return { child, pid: child.pid, baseUrl: url, apiUrl: url, adminToken: null, startMs: ready - started, stop: () => child.stop() }
  } catch (error) {
    await child.stop(500)
    throw error
  }
}
