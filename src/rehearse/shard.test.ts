import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { mergeReports, parseShard, pickShard } from './shard.js'
import { render, runRehearsal } from './rehearse-run.js'

describe('shards', () => {
  it.each([
    ['1/2', { index: 1, count: 2 }],
    ['3/3', { index: 3, count: 3 }],
    ['0/2', /must be i\/n/],
    ['3/2', /must be i\/n/],
    ['1-2', /must be i\/n/],
  ])('%s parses as %o', (spec, expected) => {
    const parsed = parseShard(spec)
    if (expected instanceof RegExp) expect(parsed).toMatch(expected)
    else expect(parsed).toEqual(expected)
  })

  it('puts every task in exactly one shard', () => {
    const tasks = ['e', 'a', 'd', 'c', 'b'].map((name) => ({ name }))
    const shards = [1, 2, 3].map((index) => pickShard(tasks, { index, count: 3 }).map((t) => t.name))
    expect(shards).toEqual([['a', 'd'], ['b', 'e'], ['c']])
  })

  it('two shards merged report every task once, with the failures and the exit code of one run', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rehearse-shards-'))
    try {
      const quiet = () => {}
      // The slicing agent raises within policy cleanly (passes) and works around the block (fails).
      for (const index of [1, 2]) {
        await runRehearsal(['rehearsals/tasks'], { agent: 'node rehearsals/agents/slicing.mjs', grep: '^(blocked-tool|raise-budget-within-policy)$', shard: `${index}/2`, reporter: [`json:${join(dir, `${index}.json`)}`], out: quiet, err: quiet })
      }
      const merged = await mergeReports([join(dir, '1.json'), join(dir, '2.json')])
      expect(merged.tasks.map((t) => [t.task, t.passed]).sort()).toEqual([['blocked-tool', false], ['raise-budget-within-policy', true]])
      expect(merged.summary).toMatchObject({ passed: 1, failed: 1 })
      const rendered = await render(merged, [`junit:${join(dir, 'all.xml')}`, `ndjson:${join(dir, 'all.ndjson')}`, `html:${join(dir, 'all.html')}`], quiet)
      expect(rendered.exitCode).toBe(1)
      expect((await readFile(join(dir, 'all.xml'), 'utf8')).match(/<testcase /g)).toHaveLength(2)
      const lines = (await readFile(join(dir, 'all.ndjson'), 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { type: string })
      expect(lines.map((l) => l.type)).toEqual(['task', 'task', 'summary'])
      const html = await readFile(join(dir, 'all.html'), 'utf8')
      expect(html).toContain('1 passed, 1 failed')
      expect(html.match(/<details class="scenario /g)).toHaveLength(2)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})
