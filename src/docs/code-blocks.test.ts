import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { assignedNames, codeBlocks, pointAt } from './code-blocks.js'
import { preparePage, runBlock } from './run-block.js'

const PAGE = [
  '# Page', '', '```sh', 'echo one', '```', '',
  '<!-- not-run: starts a server -->', '```bash', 'npx adops-sandbox serve', '```', '',
  '<!-- not-run: -->', '```ts', 'console.log(1)', '```', '',
  '```json', '{"not": "code"}', '```', '',
  '```typescript', 'const x = 1', '```',
].join('\n')

describe('finding the blocks the docs test runs', () => {
  it('lists shell and TypeScript blocks with their fence line and not-run reason', () => {
    expect(codeBlocks('p.md', PAGE)).toEqual([
      { file: 'p.md', line: 3, kind: 'sh', code: 'echo one' },
      { file: 'p.md', line: 8, kind: 'sh', code: 'npx adops-sandbox serve', notRun: 'starts a server' },
      { file: 'p.md', line: 13, kind: 'ts', code: 'console.log(1)', notRun: '' },
      { file: 'p.md', line: 21, kind: 'ts', code: 'const x = 1' },
    ])
  })

  it('points the documented default URLs at the sandbox under test and runs the CLI from source', () => {
    const urls = { base: 'http://127.0.0.1:5001', api: 'http://127.0.0.1:5002' }
    expect(pointAt('curl http://localhost:4010/a localhost:4011/v1 127.0.0.1:4010 && npx adops-sandbox conform', urls))
      .toBe('curl http://127.0.0.1:5001/a 127.0.0.1:5002/v1 127.0.0.1:5001 && adops-sandbox conform')
  })

  it('knows which variables a block sets', () => {
    expect(assignedNames('KEY=abc\nexport ID=$(x)\n  CID=1 # c\necho $OTHER\nKEY=again')).toEqual(['KEY', 'ID', 'CID'])
  })
})

describe('running blocks of one page', () => {
  it('carries a variable into a later block, and reports a failing block with its output and exit code', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'code-blocks-'))
    try {
      const page = await preparePage(resolve(import.meta.dirname, '../..'), dir, { base: 'http://127.0.0.1:1', api: 'http://127.0.0.1:2' })
      const block = (code: string, line: number) => ({ file: 'p.md', line, kind: 'sh' as const, code })
      expect(await runBlock(block('GREETING=hello', 1), page)).toEqual({ code: 0, output: '' })
      expect((await runBlock(block('echo "$GREETING world"', 2), page)).output).toBe('hello world\n')
      const failed = await runBlock(block('echo before\nfalse\necho after', 3), page)
      expect(failed.code).toBe(1)
      expect(failed.output).toBe('exit 1\nbefore\n')
      // A block that leaves something running in the background (`serve &`) leaves nothing behind.
      const started = await runBlock(block('sleep 300 &\necho $!', 4), page)
      const pid = Number(started.output.trim())
      expect(pid).toBeGreaterThan(0)
      await new Promise((r) => setTimeout(r, 100))
      // Gone, or a zombie waiting for a PID 1 that does not reap (containers): either way, not running.
      const state = await readFile(`/proc/${pid}/stat`, 'utf8').then((t) => t.split(') ')[1]?.[0], () => 'gone')
      expect(['gone', 'Z', 'X']).toContain(state)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
