import { spawnSync } from 'node:child_process'

export const PREREQUISITES = ['bash', 'curl', 'jq', 'node'] as const

/** The prerequisites the docs assume that are not on PATH. */
export function missingPrerequisites(): string[] {
  return PREREQUISITES.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status !== 0)
}

export function prerequisiteMessage(missing: string[]): string {
  return `docs examples need ${PREREQUISITES.join(', ')} on PATH; missing: ${missing.join(', ')}`
}
