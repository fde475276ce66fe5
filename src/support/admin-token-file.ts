import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/** The state file `serve` uses when none is given; its token file is the CLIs' default. */
export const DEFAULT_STATE = '.sandbox/state.json'

/**
 * Where `serve` writes the admin token it generated (issue 33): next to the state file, named after
 * it: `.sandbox/state.json` → `.sandbox/state.admin-token`. None for `memory` state.
 */
export function adminTokenFile(state: string): string | null {
  if (state === 'memory') return null
  return `${state.replace(/\.json$/, '')}.admin-token`
}

/** Writes the token with mode 0600 (a new file renamed into place: never readable by others, even for a moment). */
export function writeAdminTokenFile(file: string, token: string): void {
  mkdirSync(dirname(file), { recursive: true })
  const scratch = `${file}.${process.pid}.tmp`
  writeFileSync(scratch, `${token}\n`, { mode: 0o600, flag: 'w' })
  chmodSync(scratch, 0o600)
  renameSync(scratch, file)
}

/** Removes the token file if it holds `token` (a newer sandbox may have replaced it); `token` null removes it whatever it holds. */
export function removeAdminTokenFile(file: string, token: string | null): void {
  if (token === null || readAdminTokenFile(file) === token) rmSync(file, { force: true })
}

/** The token a token file holds, or undefined when there is none. */
export function readAdminTokenFile(file: string): string | undefined {
  if (!existsSync(file)) return undefined
  return readFileSync(file, 'utf8').trim() || undefined
}

/**
 * The admin token a CLI (conform, rehearse, bench) sends to a running sandbox without extra
 * flags: the flag, else `SANDBOX_ADMIN_TOKEN`, else the token file of `SANDBOX_STATE` or of the
 * default state. Undefined when none is found (an open control plane needs none).
 */
export function findAdminToken(given: { flag?: string; env?: string; state?: string }): string | undefined {
  if (given.flag) return given.flag
  if (given.env) return given.env
  const file = adminTokenFile(given.state ?? DEFAULT_STATE)
  return file ? readAdminTokenFile(file) : undefined
}
