import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'

// The shipped worlds, from `conformance/` under tsx and from `dist/conformance/` when built.
const here = fileURLToPath(new URL('.', import.meta.url))
const dirs = [resolve(here, '../fixtures/worlds'), resolve(here, '../../fixtures/worlds')]

function worldsDir(): string {
  return dirs.find((d) => existsSync(d)) ?? dirs[0]
}

/** World names a scenario's `world:` (or a `control` reset) may name: the shipped world files. */
export function worldNames(): string[] {
  return readdirSync(worldsDir()).filter((f) => /\.ya?ml$/.test(f)).map((f) => f.replace(/\.ya?ml$/, '')).sort()
}

const keyNames = new Map<string, string[] | null>()

/**
 * The credential names (`auth: owner`) a world defines, or null when there is no such world. A
 * name with a `/` or ending in `.yaml` is a path from the working directory, as `serve --world`.
 */
export function worldKeyNames(world: string): string[] | null {
  if (!keyNames.has(world)) keyNames.set(world, readKeyNames(world))
  return keyNames.get(world)!
}

function readKeyNames(world: string): string[] | null {
  const file = /[/\\]|\.ya?ml$/.test(world) ? resolve(world) : resolve(worldsDir(), `${world}.yaml`)
  if (!existsSync(file)) return null
  try {
    const parsed = parse(readFileSync(file, 'utf8')) as { keys?: Array<{ name?: unknown }> } | null
    return (parsed?.keys ?? []).map((k) => String(k.name))
  } catch {
    // A broken world file is reported by the sandbox that loads it, with its own file:line:column.
    return []
  }
}
