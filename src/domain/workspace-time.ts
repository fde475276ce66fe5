import type { Clock, Deps } from './ports.js'

/**
 * The clock a time rule about `workspaceId` reads: the workspace's own test clock when it has one
 * (issue 19), else the sandbox clock. `null` (no workspace concerned) reads the sandbox clock.
 */
export function clockIn(deps: Deps, workspaceId: string | null | undefined): Clock {
  return workspaceId && deps.clockFor ? deps.clockFor(workspaceId) : deps.clock
}

/** Current time in epoch milliseconds on the clock of `workspaceId` (see `clockIn`). */
export function nowIn(deps: Deps, workspaceId: string | null | undefined): number {
  return clockIn(deps, workspaceId).now()
}
