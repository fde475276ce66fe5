import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runScenarios } from '../runner.js'
import { makeTarget } from '../targets.js'
import { PLANTED, startPlantedTarget } from '../test-fixtures/planted-bugs.js'
import type { PlantedTarget } from '../test-fixtures/planted-bugs.js'
import { explore } from './explore.js'
import type { ExploreResult } from './explore.js'
import { writeFindings } from './explore-report.js'

let planted: PlantedTarget
let dir: string
const plantedTarget = () => makeTarget({ kind: 'url', baseUrl: planted.baseUrl, apiUrl: planted.apiUrl, adminToken: planted.adminToken })

beforeAll(async () => {
  planted = await startPlantedTarget()
  dir = await mkdtemp(join(tmpdir(), 'explore-'))
})
afterAll(async () => {
  await planted?.close()
  await rm(dir, { recursive: true, force: true })
})

describe('conform --explore against a target with ten planted violations (issue 38)', () => {
  let result: ExploreResult
  let files: string[]

  beforeAll(async () => {
    result = await explore({ target: plantedTarget(), seed: 38, runs: 500 })
    files = await writeFindings(result, dir)
  }, 300_000)

  it('finds at least 8 of the 10, each shrunk to at most 5 steps', () => {
    const caught = Object.entries(PLANTED).filter(([, property]) => result.findings.some((f) => f.property === property)).map(([bug]) => bug)
    expect(caught.length, `caught: ${caught.join(', ')}`).toBeGreaterThanOrEqual(8)
    for (const finding of result.findings) expect(finding.scenario.steps.length, finding.reason).toBeLessThanOrEqual(5)
  })

  it('writes each as a scenario that fails on the planted target and passes on a clean sandbox', async () => {
    expect(files).toHaveLength(result.findings.length)
    const onPlanted = await runScenarios({ paths: files, target: plantedTarget(), baseline: null, jobs: 1 })
    expect(onPlanted.scenarios.map((s) => [s.id, s.outcome])).toEqual(onPlanted.scenarios.map((s) => [s.id, 'failed']))
    const onClean = await runScenarios({ paths: files, baseline: null })
    expect(onClean.scenarios.map((s) => [s.id, s.outcome, s.reason ?? ''])).toEqual(onClean.scenarios.map((s) => [s.id, 'passed', '']))
  }, 120_000)

  it('names in each file the violation, its rule ids and the seed', async () => {
    const text = await readFile(files[0], 'utf8')
    expect(text).toMatch(/^# Found by conform --explore \(seed-38\): /)
    expect(text).toMatch(/\ncovers: \[|\ncovers:\n/)
  })

  it('finds the same violations with the same seed', async () => {
    const again = await explore({ target: plantedTarget(), seed: 38, runs: 40 })
    const first = await explore({ target: plantedTarget(), seed: 38, runs: 40 })
    // A key created in a sequence is new each time: its (masked) value is the only difference allowed.
    const shape = (r: ExploreResult) => r.findings.map((f) => [f.property, f.scenario.steps.length, f.reason.replace(/svc_test_\w+…/g, 'svc_test_…')])
    expect(shape(again)).toEqual(shape(first))
    expect(again.findings.length).toBeGreaterThan(0)
  }, 300_000)
})

describe('conform --explore against a clean sandbox', () => {
  it('finds nothing in 150 sequences', async () => {
    const result = await explore({ seed: 5, runs: 150 })
    expect(result.findings.map((f) => f.reason)).toEqual([])
    expect(result.runs).toBe(150)
  }, 300_000)
})
