import { randomBytes } from 'node:crypto'
import type { ControlClient } from '../client/control-client.js'

/** A fresh control-plane token for one trial: the harness and the simulated reviewer hold it, the agent never does (issue 33 item 3). */
export function trialAdminToken(): string {
  return `rehearsal_${randomBytes(24).toString('base64url')}`
}

interface KeyRow {
  id: string
  name: string
  scopes: string[]
  user_id: string
  workspace_id: string | null
  revoked_at: string | null
}

/**
 * Seals a trial's world (issue 33 item 3): every key the world file publishes (`svc_test_reviewerAcme…`
 * and the rest, printed in the docs) is revoked and replaced by a key of the same user, workspace,
 * scopes and name with a fresh random value that no one is told. The world keeps its people and what
 * they may do; no published value opens anything. Done over the control plane, before the agent's key
 * is minted. Answers the number of keys replaced.
 */
export async function sealWorld(control: ControlClient): Promise<number> {
  const state = await control.request<{ keys: KeyRow[] } & Record<string, unknown>>('GET', '/state')
  const live = state.keys.filter((k) => !k.revoked_at)
  const now = (await control.clock()).now
  await control.request('PUT', '/state', { ...state, keys: state.keys.map((k) => (k.revoked_at ? k : { ...k, revoked_at: now })) })
  await Promise.all(live.map((k) => control.mintKey({ user_id: k.user_id, workspace_id: k.workspace_id, scopes: k.scopes, name: k.name })))
  return live.length
}

/** The variables every agent gets from the operator's environment, when set: nothing else leaks through unless named. */
export const BASE_ENV = ['PATH', 'HOME', 'LANG', 'TMPDIR'] as const

/**
 * The agent's whole environment: `PATH`, `HOME`, `LANG`, `TMPDIR` and the variables `passThrough`
 * names (`rehearse --agent-env NAME`), as the operator has them, then `own` (the agent's key, the
 * three service URLs, the goal). The operator's other variables (cloud credentials, tokens) stay out.
 */
export function agentEnvironment(own: Record<string, string>, passThrough: readonly string[] = [], from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {}
  for (const name of [...BASE_ENV, ...passThrough]) {
    const value = from[name]
    if (value !== undefined) env[name] = value
  }
  return { ...env, ...own }
}
