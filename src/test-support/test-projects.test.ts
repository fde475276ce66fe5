import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const config = readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8')

/** The names listed in one `const NAME = [...]` of vitest.config.ts. */
function listed(name: string): string[] {
  const body = new RegExp(`const ${name} = \\[([\\s\\S]*?)\\]`).exec(config)?.[1] ?? ''
  return [...body.matchAll(/'([^']+)'/g)].map((m) => m[1])
}

function testFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `${dir}/${f}`)
}

describe('test projects (vitest.config.ts)', () => {
  it('give every file that mocks a module a worker of its own, since the fast project shares one without isolation', () => {
    const mocking = ['src', 'conformance', 'bench'].flatMap(testFiles).filter((f) => /\bvi\.mock\(/.test(readFileSync(join(ROOT, f), 'utf8')))
    expect(mocking.length).toBeGreaterThan(0)
    expect(mocking.filter((f) => !listed('OWN_WORKER').includes(f))).toEqual([])
  })
})
