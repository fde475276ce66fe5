import { readFile, readdir } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { World } from '../domain/world.js'
import { worldSchema } from '../domain/world-schema.js'
import { parseYaml } from '../support/yaml-schema.js'

/** The shipped worlds folder (works from `src/` under tsx and from `dist/src/` when built). */
export function worldsDir(): string {
  const here = dirname(fileURLToPath(import.meta.url))
  const candidates = [resolve(here, '../../fixtures/worlds'), resolve(here, '../../../fixtures/worlds')]
  return candidates.find((dir) => existsSync(dir)) ?? candidates[0]
}

export async function listWorlds(): Promise<string[]> {
  const files = await readdir(worldsDir())
  return files.filter((f) => f.endsWith('.yaml')).map((f) => f.replace(/\.yaml$/, '')).sort()
}

/** Loads a world by name (`default`) or path; a bad file fails with file:line:column, path and reason. */
export async function loadWorld(nameOrPath: string): Promise<World> {
  const file = /[/\\]|\.ya?ml$/.test(nameOrPath) ? resolve(nameOrPath) : join(worldsDir(), `${nameOrPath}.yaml`)
  const text = await readFile(file, 'utf8').catch(async () => {
    const known = await listWorlds().catch(() => [])
    throw new Error(`World "${nameOrPath}" not found (looked for ${file}). Known worlds: ${known.join(', ')}`)
  })
  return parseWorld(text, file)
}

export function parseWorld(text: string, file: string): World {
  return parseYaml(text, file, worldSchema) as World
}
