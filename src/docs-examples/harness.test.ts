import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { extractBlocks } from './extract-blocks.js'
import { blockName, PageSession } from './page-session.js'
import { substituteUrls } from './substitute.js'

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const dir = mkdtempSync(path.join(os.tmpdir(), 'docs-harness-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const PAGE = [
  '# Planted', // 1
  '', // 2
  '```sh', // 3
  'X=hello', // 4
  'echo http://localhost:4010 > url.txt', // 5
  '```', // 6
  '', // 7
  '```json', // 8
  '{"not": "run"}', // 9
  '```', // 10
  '', // 11
  '```bash', // 12
  'test "$X" = hello', // 13
  'test "$(cat url.txt)" = "$SANDBOX_BASE_URL"', // 14
  'curl -s -o /dev/null -w "%{http_code}" localhost:4011/v1/campaigns -H "authorization: Bearer svc_test_ownerAcme00000000000000000000000" | grep -q 200', // 15
  '```', // 16
  '', // 17
  '```sh', // 18
  'echo boom; exit 3', // 19
  '```', // 20
  '', // 21
  '<!-- not-run: needs a real deployment -->', // 22
  '', // 23
  '```sh', // 24
  'adops-sandbox serve', // 25
  '```', // 26
  '<!-- not-run: -->', // 27
  '```sh', // 28
  'true', // 29
  '```', // 30
  '', // 31
  '- a list item', // 32
  '', // 33
  '  ```ts', // 34
  "  import { createSandbox } from 'adops-sandbox'", // 35
  "  if (typeof createSandbox !== 'function' || !process.env.SANDBOX_API_URL) process.exit(1)", // 36
  "  console.log('http://127.0.0.1:4011'.startsWith(process.env.SANDBOX_API_URL!) ? 'same' : 'substituted')", // 37
  '  ```', // 38
].join('\n')

describe('docs-examples harness', () => {
  it('finds shell and ts fences with their lines and not-run markers, and skips others', () => {
    const blocks = extractBlocks(PAGE)
    expect(blocks.map((b) => [b.line, b.kind, b.notRun])).toEqual([
      [3, 'shell', null],
      [12, 'shell', null],
      [18, 'shell', null],
      [24, 'shell', 'needs a real deployment'],
      [28, 'shell', ''],
      [34, 'ts', null],
    ])
  })

  it('substitutes the default hosts with and without a scheme', () => {
    const urls = { baseUrl: 'http://127.0.0.1:5001', apiUrl: 'http://127.0.0.1:5002' }
    expect(substituteUrls('curl localhost:4010/x http://127.0.0.1:4011/y http://localhost:40100', urls)).toBe(
      'curl 127.0.0.1:5001/x http://127.0.0.1:5002/y http://localhost:40100',
    )
  })

  it('runs a page in order against a fresh sandbox: variables carry over, failures name file:line', async () => {
    const file = path.join(dir, 'page.md')
    writeFileSync(file, PAGE)
    const session = new PageSession('planted/page.md', file, repoRoot, 20_000)
    await session.open()
    try {
      const [first, second, failing, , , ts] = session.blocks
      expect(await session.run(first!)).toEqual({ ok: true, message: null })
      expect(await session.run(second!)).toEqual({ ok: true, message: null })
      const failed = await session.run(failing!)
      expect(failed.ok).toBe(false)
      expect(failed.message).toMatch(/^planted\/page\.md:18 \(shell block\) exited with code 3/)
      expect(failed.message).toContain('boom')
      expect(blockName('planted/page.md', failing!)).toBe('planted/page.md:18 echo boom; exit 3')
      expect(await session.run(ts!)).toEqual({ ok: true, message: null })
      expect(session.summary()).toBe(
        'planted/page.md: 4 run, 2 not-run\n  planted/page.md:24 not-run: needs a real deployment\n  planted/page.md:28 not-run: (NO REASON)',
      )
    } finally {
      await session.close()
    }
  }, 40_000)

  it('a hang is a failure naming the block, not a stuck suite', async () => {
    const file = path.join(dir, 'hang.md')
    writeFileSync(file, '```sh\nsleep 30\n```\n')
    const session = new PageSession('planted/hang.md', file, repoRoot, 500)
    await session.open()
    try {
      // No wall-clock assert: a harness that waited the block's 30 s would hit this test's 15 s timeout.
      const outcome = await session.run(session.blocks[0]!)
      expect(outcome.message).toMatch(/^planted\/hang\.md:1 \(shell block\) timed out after 500 ms/)
    } finally {
      await session.close()
    }
  }, 15_000)

  it('a block that starts something in the background ends it when the block ends', async () => {
    const file = path.join(dir, 'background.md')
    // The second block passes only when the first one's sleep is gone (or a zombie no PID 1 reaped: not running).
    const check = 'state=$(awk \'{print $3}\' /proc/$(cat pid)/stat 2>/dev/null || echo gone)\ncase "$state" in gone|Z|X) exit 0;; *) exit 1;; esac'
    writeFileSync(file, `\`\`\`sh\nsleep 300 &\necho $! > pid\n\`\`\`\n\n\`\`\`sh\n${check}\n\`\`\`\n`)
    const session = new PageSession('planted/background.md', file, repoRoot, 10_000)
    await session.open()
    try {
      // A block that waited for its background child would run into the 300 s sleep (this test's timeout ends it first).
      expect((await session.run(session.blocks[0]!)).ok).toBe(true)
      // The child is signalled as the block ends; polled (not slept on) until the kernel has it gone.
      await vi.waitFor(async () => expect(await session.run(session.blocks[1]!)).toEqual({ ok: true, message: null }), { timeout: 5_000, interval: 20 })
    } finally {
      await session.close()
    }
  })
})
