import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const run = promisify(execFile)

async function conform(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'conform', ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, timeout: 90_000 })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr }
  }
}

let sb: RunningSandbox
beforeAll(async () => {
  sb = await createSandbox()
})
afterAll(async () => {
  await sb?.close()
})

describe('adops-sandbox conform --drift', { timeout: 120_000 }, () => {
  it('exits 0 with "drift: none" against a deployment that answers like the sandbox, and writes the JSON report', async () => {
    const keys = Object.entries(sb.keys).flatMap(([name, value]) => ['--key', `${name}=${value}`])
    const out = `${ROOT}/.drift-test-${process.pid}.json`
    const result = await conform(['--drift', '--base-url', sb.baseUrl, '--api-url', sb.apiUrl, ...keys, '--reporter', `json:${out}`, '--grep', '^(rest|auth)\\.'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toMatch(/drift: target ran \d+ scenarios/)
    expect(result.stdout).toContain('drift: none')
    const { readFile, rm } = await import('node:fs/promises')
    const report = JSON.parse(await readFile(out, 'utf8')) as { comparison: { findings: unknown[]; compared: number }; exitCode: number }
    await rm(out)
    expect(report.comparison.findings).toEqual([])
    expect(report.comparison.compared).toBeGreaterThan(0)
    // No key value leaves in the report.
    expect(JSON.stringify(report)).not.toContain(sb.keys.owner)
  })

  it.each([
    [['--drift'], /--drift compares a deployment/],
    [['--drift', '--base-url', 'http://127.0.0.1:9'], /--base-url needs --api-url/],
    [['--drift', '--target', 'http://127.0.0.1:9', '--reporter', 'html:x.html'], /only json:<file>/],
  ])('exits 2 with a clear line for %j', async (args, message) => {
    const result = await conform(args)
    expect(result.code).toBe(2)
    expect(result.stderr).toMatch(message)
  })
})
