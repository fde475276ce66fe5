import { createSandbox } from '../src/create-sandbox.js'
import { ControlClient } from '../src/client/control-client.js'
import type { Scenario } from './schema.js'
import type { Capability, Target } from './types.js'
import { runsInCopy, supportsWorldCopies } from './world-copies.js'

/** How scenarios reach a service: one `Target` per scenario. */
export interface TargetFactory {
  kind: Target['kind']
  /** Human description for reports. */
  describe: string
  capabilities: ReadonlySet<Capability>
  /** False when scenarios share one service (they then run one at a time). Read after `probe`. */
  isolated: boolean
  /** A scenario this target can only run alone (after the parallel ones), e.g. one that resets a shared sandbox. */
  runsAlone?(scenario: Scenario): boolean
  open(scenario: Scenario): Promise<Target>
  /** Checks the service answers at all (exit 3 when not). */
  probe(): Promise<void>
  /** SDK mode: the SDK under test as `name@version`; selects baseline entries with that `sdk`. */
  sdk?: string
}

export type TargetSpec =
  | { kind: 'sandbox' }
  | { kind: 'url'; baseUrl: string; apiUrl?: string; adminToken?: string }
  | { kind: 'real'; baseUrl: string; apiUrl: string; keys: Record<string, string> }

/** The target could not be reached (exit code 3). */
export class TargetUnreachableError extends Error {}

const ALL: Capability[] = ['control', 'clock', 'faults', 'journal']

/** A factory as given, or the one a spec describes (default: the in-process sandbox). */
export function toFactory(target?: TargetSpec | TargetFactory): TargetFactory {
  return target && 'open' in target ? target : makeTarget(target)
}

export function makeTarget(spec: TargetSpec = { kind: 'sandbox' }): TargetFactory {
  if (spec.kind === 'sandbox') return inProcess()
  if (spec.kind === 'url') return runningSandbox(spec)
  return realDeployment(spec)
}

/** A fresh in-process sandbox per scenario, loaded with the scenario's world. */
function inProcess(): TargetFactory {
  return {
    kind: 'sandbox',
    describe: 'in-process sandbox (one world per scenario)',
    capabilities: new Set(ALL),
    isolated: true,
    probe: async () => undefined,
    async open(scenario) {
      const sandbox = await createSandbox({ world: scenario.world })
      return {
        kind: 'sandbox',
        baseUrl: sandbox.baseUrl,
        apiUrl: sandbox.apiUrl,
        capabilities: new Set(ALL),
        credentials: sandbox.keys,
        control: sandbox.control,
        adminToken: sandbox.adminToken ?? undefined,
        close: () => sandbox.close(),
      }
    },
  }
}

/**
 * A running sandbox. One that seeds world copies and has workspace clocks (issue 19) runs each
 * scenario in its own copy of its world, on the copy's own clocks, in parallel; a scenario that
 * resets, scripts faults or reads the journal runs alone afterwards. An older sandbox is reset to
 * each scenario's world, one scenario at a time.
 */
function runningSandbox(spec: { baseUrl: string; apiUrl?: string; adminToken?: string }): TargetFactory {
  const control = new ControlClient(spec.baseUrl, spec.adminToken ?? null)
  let apiUrl = spec.apiUrl
  let copies = false
  const base = (credentials: Record<string, string>): Target => ({
    kind: 'url', baseUrl: spec.baseUrl, apiUrl: apiUrl!, capabilities: new Set(ALL), credentials, control, adminToken: spec.adminToken, close: async () => undefined,
  })
  return {
    kind: 'url',
    describe: `running sandbox at ${spec.baseUrl}`,
    capabilities: new Set(ALL),
    get isolated() {
      return copies
    },
    runsAlone: (scenario) => !copies || !runsInCopy(scenario),
    async probe() {
      try {
        const info = await control.request<{ api_url?: string }>('GET', '/info')
        apiUrl ??= info.api_url
      } catch (error) {
        const status = (error as { status?: number }).status
        if (status === undefined) throw new TargetUnreachableError(`${spec.baseUrl}: ${(error as Error).message}`)
        // The control plane is closed by default (issue 33): say which token it wants instead of failing later.
        if (status === 401 || status === 429) {
          throw new TargetUnreachableError(`${spec.baseUrl}: the control plane refused ${spec.adminToken ? 'the admin token given' : 'a call without an admin token'} (${status}); pass --admin-token <token> (serve prints it at start), set SANDBOX_ADMIN_TOKEN, or run from the folder whose .sandbox/ holds serve's token file`)
        }
      }
      if (!apiUrl) throw new TargetUnreachableError(`${spec.baseUrl}: could not learn the api host; pass --api-url`)
      copies = await supportsWorldCopies(control)
    },
    async open(scenario) {
      if (copies && runsInCopy(scenario)) {
        const copy = await control.copyWorld(scenario.world)
        const credentials = Object.fromEntries(copy.keys.map((k) => [k.name, k.value]))
        // The copy goes when its scenario ends, so repeated runs do not pile copies up on a long-lived sandbox.
        const close = () => control.removeWorldCopy(copy.suffix).then(() => undefined, () => undefined)
        return { ...base(credentials), workspaceClocks: copy.workspaces, renames: copy.ids, close }
      }
      const reset = await control.reset(scenario.world)
      return base(Object.fromEntries(reset.keys.map((k) => [k.name, k.value])))
    },
  }
}

/** A real deployment: no control plane, credentials from `--key name=value`. */
function realDeployment(spec: { baseUrl: string; apiUrl: string; keys: Record<string, string> }): TargetFactory {
  return {
    kind: 'real',
    describe: `deployment at ${spec.baseUrl} / ${spec.apiUrl}`,
    capabilities: new Set(),
    isolated: true,
    async probe() {
      for (const url of [spec.baseUrl, spec.apiUrl]) {
        await fetch(url, { signal: AbortSignal.timeout(10_000) }).catch((error: Error) => {
          throw new TargetUnreachableError(`${url}: ${error.cause instanceof Error ? error.cause.message : error.message}`)
        })
      }
    },
    async open() {
      return { kind: 'real', baseUrl: spec.baseUrl, apiUrl: spec.apiUrl, capabilities: new Set(), credentials: spec.keys, control: null, close: async () => undefined }
    },
  }
}
