import type { Express } from 'express'
import type { RequestListener } from 'node:http'
import pino from 'pino'
import type { Logger } from 'pino'
import type { Deps, Ids } from './domain/ports.js'
import type { World, WorldKey } from './domain/world.js'
import { seedWorld } from './domain/world.js'
import { hashKey } from './domain/access.js'
import { openStore } from './store/lowdb-store.js'
import type { FileStore } from './store/lowdb-store.js'
import type { Durability } from './store/durable-file.js'
export { DURABILITIES } from './store/durable-file.js'
export type { Durability }
import { emptySnapshot } from './store/layout.js'
import { listWorlds, loadWorld } from './store/world-file.js'
import type { CatalogSource } from './store/catalog-file.js'
import { loadCatalog } from './store/catalog-file.js'
import { VirtualClock } from './runtime/virtual-clock.js'
import { WorkspaceClocks } from './runtime/workspace-clocks.js'
import { workspaceClockRoutes } from './http/control/workspace-clock-routes.js'
import { worldCopyRoutes } from './http/control/world-copy-routes.js'
import { landingPageControlRoutes } from './http/control/landing-page-routes.js'
import { randomIds } from './runtime/ids.js'
import type { AppContext } from './http/context.js'
import { Journal } from './http/journal.js'
import { keyHeadersOf } from './http/credentials.js'
import { createBaseApp } from './http/base-app.js'
import { createApiApp } from './http/api-app.js'
import { withFastReads } from './http/fast-reads.js'
import { withFastRuns } from './http/fast-runs.js'
import { withLateFastPaths } from './http/fast-path.js'
import { withFastAudit } from './http/fast-audit.js'
import { withFastReviews } from './http/fast-reviews.js'
import { connectionRoutes } from './http/routes/connections.js'
import { connectPages } from './http/connect-page.js'
import { gateControlRoutes } from './http/control/gate-routes.js'
import { auditRoutes } from './http/routes/audit.js'
import { reviewControlRoutes } from './http/control/review-routes.js'
import { mountConsolePages } from './console/console-static.js'
import { consoleRoutes } from './console/console-routes.js'
import { contractRoutes, mountContract } from './http/control/contract-routes.js'
import { lazyHostedMcp } from './mcp/lazy-hosted.js'
import { generateCampaigns } from './domain/campaigns.js'
import { apiToolRoutes, toolRoutes } from './http/routes/tools.js'
import { campaignRoutes } from './http/routes/campaigns.js'
import { landingPageRoutes } from './http/routes/landing-pages.js'
import { artifactRoutes } from './http/routes/artifacts.js'
import { mountFaults } from './http/faults.js'
import { mountIndex } from './http/index-page.js'
import { mountPrefer } from './http/prefer.js'
import { faultRoutes } from './http/control/fault-routes.js'
import { limitsRoutes } from './http/control/limits-routes.js'
import { AdminGate, generateAdminToken } from './http/control/admin-token.js'
import type { GuessLimit } from './http/control/guess-limiter.js'
import { consoleLinkRoutes, consoleSignIn } from './console/console-sign-in.js'

export interface SandboxOptions {
  /** State file path, or `memory` (default). One sandbox at a time per file: a held file throws `StateLockedError`. */
  state?: string
  /** World name (`fixtures/worlds/<name>.yaml`) or path; default `default`. */
  world?: string
  /** Overrides the world's faker seed. */
  seed?: number
  /** The control plane's admin token (`X-Sandbox-Admin`); a random one when left out (issue 33). */
  adminToken?: string
  /** Opens the control plane and console to anyone who can reach the port: no admin token at all. */
  openControlPlane?: boolean
  /** Wrong admin tokens a client may send at once and per second (default 5, then 2/s); tests that enumerate refusals raise it. */
  guessLimit?: GuessLimit
  journalLimit?: number
  journalFile?: string | null
  /** Bytes the request journal may hold (default `JOURNAL_MAX_BYTES`, 64 MiB); the oldest exchanges go first. */
  journalMaxBytes?: number
  logger?: Logger
  /** Deterministic ids for tests; random by default. */
  ids?: Ids
  /** Wall clock for the virtual clock; `Date.now` by default. */
  wall?: () => number
  /** What an acknowledged write survives: `process` (default: kill -9) or `fsync` (power loss too). */
  durability?: Durability
  /** Tools per hosted-MCP `tools/list` page (`serve --mcp-page-size`); default every tool on one page. */
  mcpPageSize?: number
  /** Drop what an existing state file holds and load `world` afresh (`serve --reset`). */
  reset?: boolean
  /**
   * Header names that carry a key exactly like `X-Service-Key`, on REST and hosted MCP, masked
   * like it in the journal (`serve --key-header`, issue 35); added to the world's `key_headers`.
   */
  keyHeaders?: readonly string[]
  /**
   * A tool-catalog snapshot to serve (`serve --catalog`, issue 35): a JSON file of an MCP
   * `tools/list` result, or that result itself. Default: the world's `catalog`, else none.
   */
  catalog?: CatalogSource
}

/** Everything built, nothing listening. */
export interface Sandbox {
  ctx: AppContext
  baseApp: Express
  apiApp: Express
  /** What listens on the base host: `baseApp` behind the fast dispatcher path (`http/fast-runs.ts`). */
  baseListener: RequestListener
  /** What listens on the api host: `apiApp` behind the fast read path (`http/fast-reads.ts`). */
  apiListener: RequestListener
  /** True when the state came from an existing file rather than a fresh world. */
  resumed: boolean
  /** The admin token the control plane requires; null when `openControlPlane` opened it. */
  adminToken: string | null
  /** Once listening: sets `ctx.urls` and records the base URL beside the state file's lock (a second `serve` names it). */
  announce(urls: { base: string; api: string }): void
  close(): Promise<void>
}

/**
 * The composition root: builds the store, clock, journal and both apps without listening.
 * An existing state file is resumed as it is; otherwise the world is loaded.
 */
export async function buildSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const file = options.state && options.state !== 'memory' ? options.state : undefined
  const store = await openStore({ file, durability: options.durability, discardLostHistory: options.reset })
  // A sandbox that fails to build (e.g. an unknown world) releases its state file for the next one.
  return assemble(options, store).catch(async (error: unknown) => {
    await store.close().catch(() => undefined)
    throw error
  })
}

async function assemble(options: SandboxOptions, store: FileStore): Promise<Sandbox> {
  const clock = new VirtualClock(store.meta().clock, options.wall)
  const workspaceClocks = new WorkspaceClocks(store, clock)
  const deps: Deps = { store, clock, ids: options.ids ?? randomIds(), clockFor: (id) => workspaceClocks.clockFor(id) }
  const logger = options.logger ?? pino({ level: 'silent' })
  let world: World | null = null

  async function reset(name = options.world ?? 'default', seed?: number): Promise<WorldKey[]> {
    const next = await loadWorld(name)
    const worldSeed = seed ?? next.seed
    const clockBefore = clock.state()
    clock.restore({ offset_ms: 0, frozen_at: null })
    // Seeded into a scratch memory store first: a world that fails half-way leaves the state
    // untouched (a refused request changes nothing) without reading the history back for a rollback.
    const scratch = await openStore()
    scratch.replace(emptySnapshot({ world: name, seed: worldSeed, clock: clock.state() }))
    let keys: WorldKey[]
    // Loaded first: a world's policy may block a catalog tool by name (GATE-02 resolves names through it).
    const snapshot = await catalogOf(next)
    try {
      // A fresh world's workspaces have no clocks of their own yet: they read the sandbox clock.
      keys = seedWorld({ ...deps, snapshot, store: scratch, clockFor: () => clock }, { ...next, seed: worldSeed }, generateCampaigns)
    } catch (error) {
      clock.restore(clockBefore)
      throw error
    }
    store.replace(scratch.snapshot())
    world = next
    if (ctxRef) ctxRef.keyHeaders = keyHeadersOf([...(options.keyHeaders ?? []), ...(next.key_headers ?? [])])
    deps.snapshot = snapshot
    await store.commit()
    return keys
  }

  function keys(): WorldKey[] {
    if (!world) return []
    return world.keys.flatMap((k) => {
      const record = store.keys.findBy('hash', hashKey(k.value))
      if (!record || record.revoked_at) return []
      const { scopes, user_id, workspace_id, prefix } = record
      return [{ name: k.name, value: k.value, prefix, scopes, user_id, workspace_id, description: k.description ?? '' }]
    })
  }

  let ctxRef: AppContext | null = null
  // The catalog given to the sandbox wins over the world's; a world without one serves none.
  async function catalogOf(next: World | null) {
    const source = options.catalog ?? next?.catalog
    if (source === undefined) return undefined
    // Loaded on use: a sandbox without a catalog does not import the MCP tool table at start-up.
    const { isModelledTool } = await import('./mcp/modelled-tools.js')
    return loadCatalog(source, isModelledTool)
  }

  const resumed = store.users.size() > 0 && !options.reset
  if (resumed) {
    world = await loadWorld(store.meta().world).catch(() => null)
    deps.snapshot = await catalogOf(world)
  } else await reset(options.world, options.seed)

  const adminToken = controlPlaneToken(options)
  const ctx: AppContext = {
    deps,
    clock,
    workspaceClocks,
    journal: new Journal({ limit: options.journalLimit, maxBytes: options.journalMaxBytes, file: options.journalFile, logger, keyHeaders: () => ctxRef?.keyHeaders ?? [] }),
    logger,
    adminToken,
    adminGate: new AdminGate(adminToken, { limit: options.guessLimit }),
    keyHeaders: keyHeadersOf([...(options.keyHeaders ?? []), ...((world as World | null)?.key_headers ?? [])]),
    urls: { base: '', api: '' },
    lateFastPaths: new Map(),
    worlds: {
      reset,
      keys,
      saveClock: () => store.setMeta({ ...store.meta(), clock: clock.state() }),
      list: listWorlds,
      load: loadWorld,
    },
  }
  ctxRef = ctx
  // Dispatcher, campaigns, artifacts and scripted faults (issue 3).
  const apiApp = createApiApp(ctx, [apiToolRoutes, campaignRoutes, artifactRoutes], [mountFaults('api'), mountPrefer('api'), mountIndex('api')])
  const baseApp = createBaseApp(ctx, {
    // Safety gate, reviews, audit and connections (issue 4).
    routes: [connectionRoutes, auditRoutes, toolRoutes, landingPageRoutes],
    mounts: [mountFaults('base'), mountPrefer('base'), mountIndex('base'), connectPages({ onConnection: generateCampaigns }), lazyHostedMcp({ pageSize: options.mcpPageSize }), mountContract],
    control: [gateControlRoutes, reviewControlRoutes, consoleRoutes, consoleLinkRoutes, contractRoutes, faultRoutes, limitsRoutes, workspaceClockRoutes, worldCopyRoutes, landingPageControlRoutes],
    pages: [consoleSignIn, mountConsolePages],
  })
  return {
    ctx,
    baseApp,
    baseListener: withLateFastPaths(ctx, withFastRuns(ctx, withFastReviews(ctx, withFastAudit(ctx, baseApp)))),
    apiApp,
    apiListener: withFastReads(ctx, apiApp),
    resumed,
    adminToken,
    announce(urls) {
      ctx.urls = urls
      store.announce(urls.base)
    },
    close: () => store.close(),
  }
}

/** The token the control plane requires (issue 33): the one given, a fresh random one, or none when opened on purpose. */
function controlPlaneToken(options: SandboxOptions): string | null {
  if (options.openControlPlane && options.adminToken) throw new Error('adminToken and openControlPlane contradict each other: give one or the other.')
  if (options.openControlPlane) return null
  return options.adminToken || generateAdminToken()
}
