import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

let dir: string
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'rehearse-cli-')) })
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

// The bin under tsx, as a user runs it; resolves with the exit code whatever it is. NO_COLOR: CI=true
// turns picocolors on even for a pipe, and these assertions read plain text.
function bin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, NO_COLOR: '1' }
  return promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], { timeout: 60_000, env })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (error: { code: number; stdout: string; stderr: string }) => error)
}

describe('adops-sandbox rehearse', () => {
  it('exits 1 when a task fails, prints the reason and writes the JSON report; merge renders it with the same exit code', async () => {
    const report = join(dir, 'r.json')
    const run = await bin(['rehearse', '--agent', 'true', 'rehearsals/tasks/pause-worst-performer.yaml', '--reporter', `json:${report}`])
    expect(run.code).toBe(1)
    expect(run.stdout).toMatch(/✗ pause-worst-performer[\s\S]*check target \(\d+\) status: expected "PAUSED", found "ENABLED"/)
    expect(JSON.parse(await readFile(report, 'utf8')).summary).toMatchObject({ passed: 0, failed: 1 })
    const merged = await bin(['rehearse', 'merge', report, '--reporter', `junit:${join(dir, 'r.xml')}`])
    expect(merged.code).toBe(1)
    expect(await readFile(join(dir, 'r.xml'), 'utf8')).toContain('name="pause-worst-performer"')
  }, 60_000)

  it('exits 2 with the problem at its file:line:col for a broken task file', async () => {
    const file = join(dir, 'typo.yaml')
    await writeFile(file, 'name: typo\ngoal: pause it\nreviwer: { answer: never }\n')
    const run = await bin(['rehearse', '--agent', 'true', file])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/rehearse: task files have problems:\n\S*typo\.yaml:3:1 reviwer: unknown key `reviwer`/)
  }, 60_000)
})
