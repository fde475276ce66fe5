import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ScenarioLoadError, loadScenarios } from './loader.js'

async function load(text: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'scn-'))
  const file = join(dir, 'X-01-case.yaml')
  await writeFile(file, text)
  try {
    await loadScenarios([file])
    return []
  } catch (error) {
    if (!(error instanceof ScenarioLoadError)) throw error
    return error.problems.map((p) => p.replace(/^.*X-01-case\.yaml/, 'f'))
  }
}

const base = 'id: x\ntitle: A case.\ncovers: [KEY-01]\n'

describe('loading scenario files', () => {
  it.each([
    ['an unknown top-level key, with a hint', `${base}step:\n  - request: { path: /v1/me }\n`, /^f:4:1 step: unknown key `step` \(hint: did you mean `steps`\?\)/],
    ['an unknown step key, at its line', `${base}steps:\n  - request: { path: /v1/me }\n    expext: { status: 200 }\n`, /^f:6:5 steps\[0\]\.expext: unknown key `expext` \(hint: did you mean `expect`\?\)/],
    ['an unknown request key', `${base}steps:\n  - request: { path: /v1/me, methd: GET }\n`, /^f:5:30 steps\[0\]\.request\.methd: unknown key/],
    ['a wrong type', `${base}steps:\n  - request: { path: /v1/me }\n    expect: { status: ok }\n`, /^f:6:\d+ steps\[0\]\.expect\.status: /],
    ['a step with two kinds', `${base}steps:\n  - request: { path: /v1/me }\n    wait: { duration: 1s }\n`, /exactly one of .*request.*; got request and wait/],
    ['a step with no kind', `${base}steps:\n  - expect: { status: 200 }\n`, /exactly one of .* got none/],
    ['an unknown matcher', `${base}steps:\n  - request: { path: /v1/me }\n    expect: { match: { $.a: { equals: 1 } } }\n`, /unknown matcher `equals`/],
    ['a step id that shadows a template namespace', `${base}steps:\n  - id: vars\n    wait: { duration: 1s }\n`, /steps\[0\]\.id: must not be one of env/],
    ['a bad rule id', 'id: x\ntitle: A case.\ncovers: [key-1]\nsteps:\n  - request: { path: /v1/me }\n', /^f:3:\d+ covers\[0\]: must be a rule id/],
    ['a YAML syntax error, once', `${base}steps:\n  - request: { path: /v1/me, query: { a: [1 }\n`, /^f:\d+:\d+ .*YAML syntax/],
  ])('reports %s with file:line:column', async (_name, text, pattern) => {
    const problems = await load(text)
    expect(problems.some((p) => pattern.test(p)), problems.join('\n')).toBe(true)
  })

  it('accepts a well-formed scenario and fills defaults', async () => {
    expect(await load(`${base}steps:\n  - request: { path: /v1/me, host: api, auth: owner }\n    expect: { status: 200 }\n`)).toEqual([])
  })

  it('rejects duplicate scenario ids across files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'scn-'))
    for (const f of ['A-01-a.yaml', 'A-02-b.yaml']) await writeFile(join(dir, f), `${base}steps:\n  - wait: { duration: 1s }\n`)
    await expect(loadScenarios([dir])).rejects.toThrow(/duplicate scenario id `x`/)
  })

  it('loads every shipped scenario', async () => {
    const scenarios = await loadScenarios(['scenarios'])
    expect(scenarios.length).toBeGreaterThanOrEqual(100)
    for (const s of scenarios) expect(s.file).toMatch(/^scenarios\/[a-z]+\/[A-Z]+-\d{2}-[a-z0-9-]+\.yaml$/)
    for (const s of scenarios) expect(s.tags.some((t) => t === 'spec' || t === 'sandbox'), s.id).toBe(true)
  })

  it('keeps spec-tagged scenarios free of the control plane, so they run on any deployment', async () => {
    const scenarios = await loadScenarios(['scenarios'])
    const offending = scenarios.filter((s) => s.tags.includes('spec')).filter((s) => {
      const text = JSON.stringify([s.setup, s.steps, s.requires])
      return /"(control|journal)":|"requires":\["(control|clock|faults|journal)|\/api\/v1\/audit/.test(text)
    })
    expect(offending.map((s) => s.id)).toEqual([])
  })
})
