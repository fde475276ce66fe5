import { mkdtemp, rm, writeFile } from 'node:fs/promises'
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
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const base = 'id: x\ntitle: A case.\ncovers: [KEY-01]\n'

describe('loading scenario files', () => {
  it.each([
    ['an unknown top-level key, with a hint', `${base}step:\n  - request: { path: /v1/me }\n`, /^f:4:1 step: unknown key `step` \(hint: did you mean `steps`\?\)/],
    ['a key of another level, never hinted as itself', `${base}name: x\nsteps:\n  - request: { path: /v1/me }\n`, /^f:4:1 name: unknown key `name` \(hint: `name` is a key at another level of a scenario, not here; see docs\/scenarios\.md\)$/],
    ['a required key left out, said as such', 'id: x\ncovers: [KEY-01]\nsteps:\n  - request: { path: /v1/me }\n', /^f:1:1 title: required key missing \(string expected\)$/],
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
    await rm(dir, { recursive: true, force: true })
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

const BROKEN = 'conformance/test-fixtures/_broken'

/** Loads one broken fixture; its problems, with the fixture's path shortened to `f`. */
async function broken(name: string): Promise<string[]> {
  const error = await loadScenarios([`${BROKEN}/${name}`]).then(() => null, (e: unknown) => e)
  expect(error, `${name} loaded without a problem`).toBeInstanceOf(ScenarioLoadError)
  return (error as ScenarioLoadError).problems.map((p) => p.replace(`${BROKEN}/${name}`, 'f'))
}

describe('every reference is checked at load (broken fixtures the kit must catch)', () => {
  it.each([
    ['a misspelled credential', 'B-01-credential-typo.yaml', 'f:6:47 steps[0].request.auth: unknown credential `ownr` (world `default`) (did you mean `owner`?)'],
    ['a misspelled world, once (no follow-up about its credentials)', 'B-02-world-typo.yaml', 'f:5:8 world: unknown world `defualt` (did you mean `default`?)'],
    ['a rule id RULES.md does not have', 'B-03-covers-unknown.yaml', 'f:3:10 covers[0]: unknown rule id `KEY-88` (conformance/rule-ids.txt) (did you mean `KEY-08`?)'],
    ['a step id used before its step runs', 'B-04-capture-before-set.yaml', 'f:6:47 steps[0].request.auth: `child` is used before step `child` runs (it comes later)'],
    ['a fragment file that does not exist', 'B-06-fragment-missing.yaml', /^f:6:14 steps\[0\]\.include: no fragment file `[^`]+chld-key\.yaml` .*\(did you mean `child-key\.yaml`\?\)$/],
    ['a step that needs an undeclared capability', 'B-07-capability-undeclared.yaml', 'f:6:14 steps[0].control: this `control` step needs capability `control`, `clock`: declare `requires: [control, clock]` on the scenario (or this step), so a target without it skips with that reason'],
    ['a misspelled capability', 'B-08-capability-typo.yaml', 'f:5:21 requires[1]: unknown capability `clok` (did you mean `clock`?)'],
    ['a capture its step does not set', 'B-09-capture-typo.yaml', 'f:10:47 steps[1].request.auth: step `child` captures no `kye` (did you mean `key`?)'],
    ['a control reset to a misspelled world', 'B-10-reset-world-typo.yaml', 'f:7:23 steps[0].control.world: unknown world `multi-workspce` (did you mean `multi-workspace`?)'],
    ['a fragment parameter it does not take', 'B-11-include-param-typo.yaml', /^f:6:79 steps\[0\]\.include\.with\.nmae: \S+child-key\.yaml takes no parameter `nmae` \(did you mean `name`\?\)$/],
    ['an undefined var', 'B-12-var-typo.yaml', 'f:7:33 steps[0].request.path: `vars.how` is not defined (did you mean `who`?)'],
    ['a fragment whose requires the scenario does not declare', 'B-13-fragment-requires-undeclared.yaml', 'f:6:14 steps[0].include: _clock-fragment.yaml requires `control`, `clock`: declare `requires: [control, clock]` on the scenario (or this step)'],
  ])('reports %s with file:line:col, the name and a did-you-mean', async (_name, file, expected) => {
    const problems = await broken(file)
    if (typeof expected === 'string') expect(problems).toEqual([expected])
    else expect(problems.some((p) => expected.test(p)), problems.join('\n')).toBe(true)
  })

  it('reports a misspelled step kind with a did-you-mean', async () => {
    expect(await broken('B-05-step-kind-typo.yaml')).toContain('f:6:5 steps[0].reqest: unknown key `reqest` (hint: did you mean `request`?)')
  })

  it('reports the problems of every broken file in one error', async () => {
    const error = await loadScenarios([BROKEN]).then(() => null, (e: unknown) => e) as ScenarioLoadError
    const files = new Set(error.problems.map((p) => p.slice(0, p.indexOf(':'))))
    expect(files.size).toBe(13)
  })
})

