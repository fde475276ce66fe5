import type { LateFastPath } from './fast-path.js'
import type { Logger } from 'pino'
import type { Deps, WorldSource } from '../domain/ports.js'
import type { WorldKey } from '../domain/world.js'
import type { VirtualClock } from '../runtime/virtual-clock.js'
import type { WorkspaceClocks } from '../runtime/workspace-clocks.js'
import type { Journal } from './journal.js'
import type { AdminGate } from './control/admin-token.js'
import type { KeyHeaders } from './credentials.js'

/** Everything the HTTP apps share; built once by the composition root (`src/sandbox.ts`). */
export interface AppContext {
  deps: Deps
  clock: VirtualClock
  /** Per-workspace test clocks layered on `clock` (issue 19). */
  workspaceClocks: WorkspaceClocks
  journal: Journal
  logger: Logger
  /** The control plane's admin token; null when it was opened deliberately (`openControlPlane`). */
  adminToken: string | null
  /** Who may use the control plane and the console (the token, a console session, the guess limit). */
  adminGate: AdminGate
  /** Header names added with `--key-header` (lower-cased), read like `X-Service-Key` everywhere (issue 35). */
  keyHeaders: KeyHeaders
  /** Filled in once the listeners are bound; used for links such as connect URLs. */
  urls: { base: string; api: string }
  worlds: WorldControl
  /** Fast paths added by surfaces loaded on first use, by name (hosted MCP's `tools/list`; `withLateFastPaths`). */
  lateFastPaths: Map<string, LateFastPath>
}

/** World lifecycle, implemented by the composition root. */
export interface WorldControl extends WorldSource {
  /** Drops all state and loads a world (name or path), optionally with another seed. */
  reset(world?: string, seed?: number): Promise<WorldKey[]>
  /** The keys of the loaded world that still exist, with their documented values. */
  keys(): WorldKey[]
  /** Persists the clock into the state after a clock change. */
  saveClock(): void
}
