import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSandbox } from '../../src/create-sandbox.js'
import { runScenarios } from '../runner.js'

/** The `mcp` step's `follow_cursor`, `pages` and `next_cursor` read a paged hosted server (docs/mcp.md). */

const closers: Array<() => Promise<unknown>> = []
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close()
})

describe('the mcp step against a paged hosted server', { timeout: 90_000 }, () => {
  it('reads one page with follow_cursor: false and every page by default', async () => {
    const sandbox = await createSandbox({ mcpPageSize: 4 })
    closers.push(() => sandbox.close())
    const dir = await mkdtemp(join(tmpdir(), 'adops-mcp-pages-'))
    closers.push(() => rm(dir, { recursive: true, force: true }))
    await writeFile(join(dir, 'pages.yaml'), [
      'id: x.paged-hosted',
      'title: a paged hosted server, read both ways',
      'covers: [MCP-05]',
      'steps:',
      '  - mcp: { auth: owner, list_tools: true, follow_cursor: false }',
      '    expect: { status: 200, match: { $.count: 4, $.pages: 1, $.next_cursor: { type: string } } }',
      '  - mcp: { auth: owner, list_tools: true }',
      '    expect: { status: 200, match: { $.count: 11, $.pages: 3, $.next_cursor: null } }',
      '',
    ].join('\n'))
    const run = await runScenarios({ paths: [dir], target: { kind: 'url', baseUrl: sandbox.baseUrl, adminToken: sandbox.adminToken! }, baseline: null, jobs: 1, contract: 'off' })
    expect(run.scenarios.map((s) => ({ outcome: s.outcome, reason: s.reason }))).toEqual([{ outcome: 'passed', reason: undefined }])
  })
})
