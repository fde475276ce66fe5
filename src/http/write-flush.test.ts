import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import type { RequestListener } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Sandbox } from '../sandbox.js'
import { buildSandbox } from '../sandbox.js'
import type { Listening } from '../runtime/listen.js'
import { listen } from '../runtime/listen.js'
import { FastExchange } from './fast-path.js'
import { KEYS, call } from '../test-support/http.js'
import { readDocumentOnDisk } from '../store/doc-log.js'

/** What was on disk at the moment a 2xx answer's bytes were handed to the socket. */
interface AtSend {
  status: number
  auditId: string
  auditOnDisk: boolean
  budgetOnDisk: number | null
}

let dir: string
let file: string
let sandbox: Sandbox
let base: Listening
let api: Listening
const sent: AtSend[] = []

/**
 * Wraps a host's listener so every answer is checked as it is sent: the audit entry it names must
 * already be in the state log and the campaign's budget in the state document (with the log's doc lines). An answer sent
 * before its group commit is flushed (CONTRIBUTING: acknowledged writes are never lost) shows up
 * here as `false` / the old budget, whichever path (fast or express) answered.
 */
function observed(listener: RequestListener): RequestListener {
  return (req, res) => {
    const end = res.end.bind(res) as (...args: unknown[]) => typeof res
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (chunk !== undefined && res.statusCode < 300) sent.push(onDisk(res.statusCode, String(chunk)))
      return end(chunk, ...rest)
    }) as typeof res.end
    listener(req, res)
  }
}

function onDisk(status: number, text: string): AtSend {
  const body = JSON.parse(text) as { audit_id: string; campaign_id?: string; campaign?: { id: string } }
  const log = readFileSync(`${file}.log`, 'utf8')
  // The state document as a restart reads it: the file plus the log's newer doc lines.
  const doc = readDocumentOnDisk(file, ['campaigns']) as unknown as { campaigns: Array<{ id: string; daily_budget: number }> }
  const campaignId = body.campaign_id ?? body.campaign?.id
  return {
    status,
    auditId: body.audit_id,
    auditOnDisk: log.includes(`"id":"${body.audit_id}"`),
    budgetOnDisk: doc.campaigns.find((c) => c.id === campaignId)?.daily_budget ?? null,
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'adops-flush-'))
  file = join(dir, 'state.json')
  sandbox = await buildSandbox({ state: file })
  base = await listen(observed(sandbox.baseListener), '127.0.0.1', 0)
  api = await listen(observed(sandbox.apiListener), '127.0.0.1', 0)
  sandbox.ctx.urls = { base: base.url, api: api.url }
})
afterEach(() => {
  vi.restoreAllMocks()
})
afterAll(async () => {
  await Promise.all([base?.close(), api?.close()])
  await sandbox?.close()
  await rm(dir, { recursive: true, force: true })
})

async function campaignIds(): Promise<string[]> {
  const list = await call(api.url, 'GET', '/v1/campaigns?limit=100', { key: KEYS.owner })
  return (list.body.campaigns as Array<{ campaign_id: string }>).map((c) => c.campaign_id)
}

const run = (script: string, args: string[], contentType = 'application/json') => ({
  method: 'POST', path: '/api/v1/tools/run', host: 'base' as const, headers: { 'content-type': contentType },
  body: JSON.stringify({ script_name: script, args, platform: 'google' }),
})

// Each case writes, and its answer must find its write on disk. `fast` says which path must answer.
const CASES = [
  { name: 'an executed budget change on the fast dispatcher path', fast: true, status: 200, budget: 61,
    request: (id: string) => run('update_campaign_budget', ['--campaign-id', id, '--daily-budget', '61']) },
  { name: 'a held write (202) on the fast dispatcher path', fast: true, status: 202, budget: null,
    request: (id: string) => run('enable_campaign', ['--campaign-id', id]) },
  { name: 'a budget change on the dispatcher through express (a content type the fast path leaves alone)', fast: false, status: 200, budget: 62,
    request: (id: string) => run('update_campaign_budget', ['--campaign-id', id, '--daily-budget', '62'], 'application/json;charset=utf-8') },
  { name: 'a budget change through express on the api host (PATCH /v1/campaigns/{id}/budget)', fast: false, status: 200, budget: 63,
    request: (id: string) => ({ method: 'PATCH', path: `/v1/campaigns/${id}/budget`, host: 'api' as const, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ daily_budget: 63 }) }) },
]

describe('a write is answered only once its group commit is on disk', () => {
  it.each(CASES.map((c, i) => ({ ...c, i })))('$name', async ({ i, fast, status, budget, request }) => {
    const id = (await campaignIds())[i]
    const fastReplies = vi.spyOn(FastExchange.prototype, 'replyAfterCommit')
    sent.length = 0
    const { method, path, host, headers, body } = request(id)
    // Several at once, so they share one flush as real traffic does.
    const answers = await Promise.all(Array.from({ length: 5 }, () =>
      fetch(`${host === 'base' ? base.url : api.url}${path}`, { method, headers: { ...headers, authorization: `Bearer ${KEYS.owner}` }, body })))
    for (const answer of answers) expect(answer.status, await answer.clone().text()).toBe(status)
    expect(fastReplies).toHaveBeenCalledTimes(fast ? 5 : 0)

    expect(sent).toHaveLength(5)
    for (const atSend of sent) {
      expect(atSend, `audit ${atSend.auditId} answered before it was flushed`).toMatchObject({ status, auditOnDisk: true })
      if (budget !== null) expect(atSend.budgetOnDisk).toBe(budget)
    }
  })
})
