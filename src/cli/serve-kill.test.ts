import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest'
import { call } from '../test-support/http.js'
import { killServeChildren, spawnServe } from '../test-support/serve-child.js'
import { readReliabilityBlock, writeReliabilityBlock } from '../test-support/reliability-block.js'

/** The bench world's key: no rate limits and credits that never run out, so every write is a write. */
const KEY = 'svc_test_benchOwner0000000000000000000000'
/** Acknowledged writes before the kill; the lanes keep writing, so the kill lands mid-burst. */
const ACKS_BEFORE_KILL = 150

/** One campaign written by one lane, one request at a time, through one route. */
interface Lane {
  campaignId: string
  route: 'fast budget' | 'express budget' | 'fast held'
  /** The last budget a 200 acknowledged, and the one sent but not answered when the process died. */
  acked: number | null
  unanswered: number | null
}

/** What each mode's run saw, for docs/reliability.md (`UPDATE_RELIABILITY=1`). */
interface Figures {
  fast: number
  express: number
  inFlight: number
  lost: number
}
const figures = new Map<string, Figures>()
const ROWS: Array<[string, (f: Figures) => number]> = [
  ['writes acknowledged on the fast dispatcher path (200 budget, 202 held)', (f) => f.fast],
  ['writes acknowledged through express (PATCH budget, 200)', (f) => f.express],
  ['requests in flight at the SIGKILL', (f) => f.inFlight],
  ['acknowledged writes lost after the restart', (f) => f.lost],
]

let dir: string
let state: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adops-kill-'))
  state = join(dir, 'state.json')
})
afterEach(async () => {
  await killServeChildren()
  await rm(dir, { recursive: true, force: true })
})

/** Sends one write of `lane`; resolves with its audit id once acknowledged (200/202), throws otherwise. */
async function write(urls: { base: string; api: string }, lane: Lane, budget: number): Promise<string> {
  const auth = { key: KEY }
  const run = (script: string, args: string[]) => call(urls.base, 'POST', '/api/v1/tools/run', { ...auth, body: { script_name: script, args, platform: 'google' } })
  const answer = lane.route === 'express budget'
    ? await call(urls.api, 'PATCH', `/v1/campaigns/${lane.campaignId}/budget`, { ...auth, body: { daily_budget: budget } })
    : lane.route === 'fast budget'
      ? await run('update_campaign_budget', ['--campaign-id', lane.campaignId, '--daily-budget', String(budget)])
      : await run('enable_campaign', ['--campaign-id', lane.campaignId])
  const wanted = lane.route === 'fast held' ? 202 : 200
  if (answer.status !== wanted) throw new Error(`${lane.route} answered ${answer.status}: ${answer.text}`)
  return answer.body.audit_id as string
}

/** Every line of the state log as JSON (a torn last line only before a restart has cut it). */
async function logLines(options: { tornTailAllowed: boolean }): Promise<Array<{ t: string; r?: { id: string; status: string } }>> {
  const lines = (await readFile(`${state}.log`, 'utf8')).split('\n').filter(Boolean)
  return lines.flatMap((line, i) => {
    try {
      return [JSON.parse(line)]
    } catch (error) {
      if (options.tornTailAllowed && i === lines.length - 1) return []
      throw error
    }
  })
}

describe('kill -9 under a write burst', { timeout: 120_000 }, () => {
  it.each(['process', 'fsync'])('keeps every acknowledged write and parseable files (--durability %s)', async (durability) => {
    const args = ['--state', state, '--world', 'bench', '--json', '--durability', durability]
    const first = spawnServe(args)
    const banner = await first.banner()
    const urls = { base: banner.base_url, api: banner.api_url }
    const listed = (await call(urls.api, 'GET', '/v1/campaigns?limit=100', { key: KEY })).body.campaigns as Array<{ campaign_id: string; status: string }>
    // A removed campaign refuses writes (409); every other one takes them.
    const campaigns = listed.filter((c) => c.status !== 'REMOVED')
    const routes = ['fast budget', 'express budget', 'fast held'] as const
    const lanes: Lane[] = campaigns.map((c, i) => ({ campaignId: c.campaign_id, route: routes[i % 3], acked: null, unanswered: null }))
    expect(lanes.length).toBeGreaterThanOrEqual(12)

    const acknowledged = new Map<string, Lane['route']>()
    const refused: string[] = []
    let inFlightAtKill = 0
    let killed: Promise<void> | null = null
    const drive = async (lane: Lane) => {
      for (let budget = 100; !killed; budget++) {
        lane.unanswered = budget
        try {
          acknowledged.set(await write(urls, lane, budget), lane.route)
        } catch (error) {
          // After the kill a request fails on its socket; before it, any other answer is a bug.
          if (!killed) refused.push((error as Error).message)
          return
        }
        lane.acked = lane.route === 'fast held' ? null : budget
        lane.unanswered = null
        if (acknowledged.size >= ACKS_BEFORE_KILL && !killed) {
          inFlightAtKill = lanes.filter((l) => l.unanswered !== null).length
          killed = first.kill()
        }
      }
    }
    await Promise.all(lanes.map(drive))
    await killed
    expect(refused).toEqual([])
    expect(first.child.signalCode).toBe('SIGKILL')
    expect(inFlightAtKill).toBeGreaterThan(0)

    // As the killed process left them: the document is whole, the log at most torn in its last line.
    JSON.parse(await readFile(state, 'utf8'))
    await logLines({ tornTailAllowed: true })

    const second = spawnServe(args)
    const again = await second.banner()
    expect(again.resumed).toBe(true)
    const after = (await call(again.api_url, 'GET', '/v1/campaigns?limit=100', { key: KEY })).body.campaigns as Array<{ campaign_id: string; daily_budget: number }>
    for (const lane of lanes.filter((l) => l.route !== 'fast held' && l.acked !== null)) {
      const budget = after.find((c) => c.campaign_id === lane.campaignId)?.daily_budget
      // The write in flight at the kill may or may not have landed; the acknowledged one must have.
      expect([lane.acked, lane.unanswered], `${lane.route} on ${lane.campaignId}`).toContain(budget)
    }
    second.child.kill('SIGTERM')
    expect(await second.exited).toBe(0)

    const onDisk = new Map((await logLines({ tornTailAllowed: false })).filter((l) => l.t === 'audit' && l.r).map((l) => [l.r!.id, l.r!.status]))
    const missing = [...acknowledged.keys()].filter((id) => !onDisk.has(id))
    const acked = [...acknowledged.values()]
    figures.set(durability, {
      fast: acked.filter((r) => r !== 'express budget').length, express: acked.filter((r) => r === 'express budget').length, inFlight: inFlightAtKill, lost: missing.length,
    })
    expect(missing, `${missing.length} of ${acknowledged.size} acknowledged writes lost`).toEqual([])
    for (const [id, route] of acknowledged) expect(onDisk.get(id)).toBe(route === 'fast held' ? 'pending_review' : 'executed')
    JSON.parse(await readFile(state, 'utf8'))
  })

  it('has the figures of a kill -9 run in each durability mode in docs/reliability.md, with no write lost', () => {
    const rows = readReliabilityBlock('kill9')
    expect(rows, 'docs/reliability.md has no kill9 block').not.toBeNull()
    expect(rows!.get('acknowledged writes lost after the restart')).toEqual(['0', '0'])
  })
})

afterAll(() => {
  if (process.env.UPDATE_RELIABILITY !== '1' || figures.size < 2) return
  const modes = [...figures.keys()]
  writeReliabilityBlock({
    name: 'kill9',
    generatedBy: 'UPDATE_RELIABILITY=1 npx vitest run src/cli/serve-kill.test.ts',
    lines: [
      `One \`serve\` per mode, SIGKILLed after ${ACKS_BEFORE_KILL} acknowledged writes, restarted on the same files; ${new Date().toISOString().slice(0, 10)}.`,
      '',
      `| figure | ${modes.map((m) => `\`--durability ${m}\``).join(' | ')} |`,
      `| --- | ${modes.map(() => '---:').join(' | ')} |`,
      ...ROWS.map(([label, value]) => `| ${label} | ${modes.map((m) => value(figures.get(m)!)).join(' | ')} |`),
    ],
  })
})
