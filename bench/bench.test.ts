import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import type { Results } from './lib/report.js'

const run = promisify(execFile)

// A smoke test only: it checks that `npm run bench -- --quick` runs end to end and reports every
// section. It never asserts timing (CONTRIBUTING: performance is measured in bench/, not tests).
// About 20 s on a quiet 2-core machine; the generous timeout is for a machine busy with other suites.
describe('npm run bench -- --quick', () => {
  let out = ''
  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true })
  })

  it('measures every section, prints the table and writes results JSON', async () => {
    out = await mkdtemp(join(tmpdir(), 'adops-bench-smoke-'))
    const { stdout } = await run('npm', ['run', '--silent', 'bench', '--', '--quick', '--out', out], {
      cwd: join(import.meta.dirname, '..'),
      timeout: 150_000,
      maxBuffer: 10 * 1024 * 1024,
    })
    const results = JSON.parse(await readFile(join(out, 'results.json'), 'utf8')) as Results
    expect(results.machine.cores).toBeGreaterThan(0)
    expect(results.start?.runs.length).toBe(1)
    expect(results.start?.sandbox_ms).toBeGreaterThan(0)
    expect(results.start?.prism_ms).toBeGreaterThan(0)
    // Every section is measured: a section the harness skipped (it records why in `skipped`) fails
    // the smoke test rather than passing unnoticed. Only a build warning is not a measurement.
    const notMeasured = Object.entries(results.skipped).filter(([name]) => name !== 'build')
    expect(notMeasured, notMeasured.map(([name, why]) => `${name}: ${why}`).join('\n')).toEqual([])
    expect(results.read?.length).toBeGreaterThan(0)
    expect(results.write?.length).toBeGreaterThan(0)
    expect(results.held_history?.history_rows).toBeGreaterThan(0)
    expect(results.held_history?.enabled.rps).toBeGreaterThan(0)
    expect(results.agent_session?.sandbox.statuses['202']).toBeGreaterThan(0)
    expect(results.agent_session?.prism.rps).toBeGreaterThan(0)
    expect(results.agent_session?.floor?.rps).toBeGreaterThan(0)
    expect(results.state_size?.length).toBeGreaterThan(0)
    expect(results.durability?.map((row) => row.durability)).toEqual(['process', 'fsync'])
    expect(results.floor?.rps).toBeGreaterThan(0)
    expect(results.suite?.wall_ms).toBeGreaterThan(0)
    expect(results.suite?.passed).toBeGreaterThan(0)
    expect(stdout).toContain('| cold start to first 200 |')
    expect(await readFile(join(out, 'results.md'), 'utf8')).toContain('| target | wanted | measured | met |')
  }, 160_000)
})
