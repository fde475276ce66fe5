import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The dependency direction of CONTRIBUTING.md, read from the import lines themselves (issue 37).
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
}

/** Every module a file imports (static, dynamic and type-only), resolved to a path from the repo root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"](\.[^'"]+)['"]/g)].map((m) => m[1])
  return specs.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)).replace(/\.js$/, '.ts'))
}

function offenders(dirs: string[], forbidden: (target: string) => boolean): string[] {
  return dirs.flatMap(sources).flatMap((file) => importsOf(file).filter(forbidden).map((target) => `${file} → ${target}`))
}

describe('house imports', () => {
  it('the conformance kit, the client and the rehearsal know only the wire (nothing from src/domain or src/http)', () => {
    expect(offenders(['conformance', 'src/client', 'src/rehearse'], (t) => /^src\/(domain|http)\//.test(t))).toEqual([])
  })

  it('control-plane routes reach worlds through the domain, never the store’s world file', () => {
    expect(offenders(['src/http'], (t) => t === 'src/store/world-file.ts')).toEqual([])
  })

  it('the runtime does not reach up into http', () => {
    expect(offenders(['src/runtime'], (t) => /^src\/http\//.test(t))).toEqual([])
  })

  it('the domain imports no store, http, runtime or cli module', () => {
    expect(offenders(['src/domain'], (t) => /^src\/(store|http|runtime|cli|mcp)\//.test(t))).toEqual([])
  })
})
