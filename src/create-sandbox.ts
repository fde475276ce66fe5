import type { SandboxOptions } from './sandbox.js'
import { buildSandbox } from './sandbox.js'
import { listen } from './runtime/listen.js'
import { ControlClient } from './client/control-client.js'
import type { WorldKey } from './domain/world.js'
import { consoleLink } from './console/console-sign-in.js'

export interface CreateSandboxOptions extends SandboxOptions {
  host?: string
  /** Base host port; 0 (default) picks a free one. */
  port?: number
  /** Api host port; 0 (default) picks a free one. */
  apiPort?: number
}

export interface RunningSandbox {
  baseUrl: string
  apiUrl: string
  /** World key values by name, e.g. `keys.owner` (fixed by the world file). */
  readonly keys: Record<string, string>
  /** The same keys with scopes, pin and prefix. */
  readonly worldKeys: WorldKey[]
  /**
   * The admin token the control plane (`/_sandbox/*`) and the console require, sent as
   * `X-Sandbox-Admin`: the `adminToken` option, else a fresh random one; null only with
   * `openControlPlane` (issue 33). Never give it to the agent under test.
   */
  readonly adminToken: string | null
  /** A control-plane client that sends `adminToken`. */
  control: ControlClient
  /** A fresh one-time link that signs a browser in to the console (an HttpOnly session cookie). */
  consoleLink(): string
  close(): Promise<void>
}

/**
 * Starts an in-process sandbox on ephemeral ports (memory state unless `state` is a file): the way
 * SDK tests and the conformance runner use it. The control plane requires `sandbox.adminToken`
 * (random unless `adminToken` is given; `openControlPlane: true` opens it); `sandbox.control` sends it. A state file has one writer: if a live sandbox (in
 * this or another process) holds it, this rejects with a `StateLockedError` (`code: 'STATE_LOCKED'`,
 * `owner.pid`); `close()` releases it.
 *
 * @example
 * const sandbox = await createSandbox()
 * await fetch(`${sandbox.baseUrl}/api/v1/keys`, { headers: { authorization: `Bearer ${sandbox.keys.owner}` } })
 * await sandbox.close()
 */
export async function createSandbox(options: CreateSandboxOptions = {}): Promise<RunningSandbox> {
  const sandbox = await buildSandbox(options)
  const host = options.host ?? '127.0.0.1'
  // A port that cannot be bound closes what was opened, releasing the state file's lock.
  const base = await listen(sandbox.baseListener, host, options.port ?? 0).catch(async (error) => {
    await sandbox.close()
    throw error
  })
  const api = await listen(sandbox.apiListener, host, options.apiPort ?? 0).catch(async (error) => {
    await base.close()
    await sandbox.close()
    throw error
  })
  sandbox.announce({ base: base.url, api: api.url })
  return {
    baseUrl: base.url,
    apiUrl: api.url,
    get keys() {
      return Object.fromEntries(sandbox.ctx.worlds.keys().map((k) => [k.name, k.value]))
    },
    get worldKeys() {
      return sandbox.ctx.worlds.keys()
    },
    adminToken: sandbox.adminToken,
    control: new ControlClient(base.url, sandbox.adminToken),
    consoleLink: () => consoleLink(base.url, sandbox.ctx.adminGate.sessions.issueTicket()),
    async close() {
      await Promise.all([base.close(), api.close()])
      await sandbox.close()
    },
  }
}

export { buildSandbox }
export { StateLockedError } from './store/state-lock.js'
export { StateHistoryMissingError } from './store/state-history.js'
export type { SandboxOptions }
