import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/create-sandbox.js'
import { runScenarios } from '../runner.js'
import { Placeholders } from './placeholders.js'
import { startRecorder } from './recorder.js'
import { BLOCK_YAML_STEPS, writeRecording } from './write-recording.js'

const dirs: string[] = []
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })))
})

describe('writeRecording of a long session', () => {
  it('writes each step of a scenario longer than the block-YAML limit on one line, and it still replays green', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'record-long-'))
    dirs.push(dir)
    const target = await createSandbox()
    const recorder = await startRecorder({ targetBase: target.baseUrl, targetApi: target.apiUrl })
    const headers = { authorization: `Bearer ${target.keys.owner}` }
    await fetch(`${recorder.apiUrl}/v1/me`, { headers }).then((r) => r.text())
    for (let i = 0; i < BLOCK_YAML_STEPS; i++) await fetch(`${recorder.apiUrl}/v1/connections`, { headers }).then((r) => r.text())
    const placeholders = new Placeholders()
    for (const exchange of recorder.exchanges) placeholders.credentialOf(exchange)
    const files = await writeRecording(recorder.exchanges, { out: dir, target: 'a long session', placeholders })
    await recorder.close()
    await target.close()
    const text = await readFile(files.scenario, 'utf8')
    expect(text.split('\n').filter((line) => line.startsWith('  - {"id":"s')).length).toBe(BLOCK_YAML_STEPS + 1)
    const run = await runScenarios({ paths: [files.scenario], baseline: null })
    expect(run.scenarios[0].reason ?? '').toBe('')
    expect(run.scenarios[0]).toMatchObject({ outcome: 'passed' })
    expect(run.scenarios[0].steps.length).toBe(BLOCK_YAML_STEPS + 1)
  }, 120_000)
})
