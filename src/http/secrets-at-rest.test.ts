import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, call, startSandbox } from '../test-support/http.js'

/** A key value per case, each with its own 12-character prefix, so every case is told apart. */
const keyFor = (tag: string) => `svc_test_${`${tag}9Q`.repeat(7).slice(0, 32)}`
const jsonEscaped = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')
const percentAll = (text: string) => [...text].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('')
const percentUnderscores = (text: string) => text.replaceAll('_', '%5F')
/** Text with every `\uXXXX` and `%XX` decoded, repeatedly, so a key written in any of them shows plainly. */
function decodedAll(text: string): string {
  let last = ''
  let out = text
  while (out !== last) {
    last = out
    out = out.replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
  }
  return out
}
const masked = (key: string) => `${key.slice(0, 12)}…[redacted]`

type Place = 'journal' | 'journal file' | 'log' | 'audit REST' | 'audit control plane' | 'state'
interface Case {
  name: string
  key: string
  send: (sb: TestSandbox) => Promise<unknown>
  /** Places that must show the masked prefix (proving the text was kept, masked); every place must not show the key. */
  shown: Place[]
}

const run = (args: string[]) => ({ script_name: 'google_ads_upload_image_asset', platform: 'google', args: ['--image-url', 'https://x.test/a.png', '--asset-name', ...args] })
const runText = (nameJson: string) => `{"script_name":"google_ads_upload_image_asset","platform":"google","args":["--image-url","https://x.test/a.png","--asset-name","${nameJson}"]}`
const WRITE_PLACES: Place[] = ['journal', 'journal file', 'audit REST', 'audit control plane', 'state']

const CASES: Case[] = [
  { name: 'plain in a write argument', key: keyFor('pla'), send: (sb) => sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: run([keyFor('pla')]) }), shown: WRITE_PLACES },
  { name: 'JSON-escaped in a write argument', key: keyFor('jsn'), send: (sb) => sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: runText(jsonEscaped(keyFor('jsn'))) }), shown: WRITE_PLACES },
  { name: 'one JSON-escaped character in a write argument', key: keyFor('one'), send: (sb) => sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: runText(`\\u0073${keyFor('one').slice(1)}`) }), shown: WRITE_PLACES },
  { name: 'percent-encoded in a write argument', key: keyFor('pct'), send: (sb) => sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: run([percentUnderscores(keyFor('pct'))]) }), shown: WRITE_PLACES },
  { name: 'percent-encoded in a query string', key: keyFor('qry'), send: (sb) => sb.api('GET', `/v1/campaigns?name=${percentUnderscores(keyFor('qry'))}`, { key: KEYS.owner }), shown: ['journal', 'journal file'] },
  { name: 'percent-encoded in a path', key: keyFor('pth'), send: (sb) => sb.api('GET', `/v1/campaigns/${percentAll(keyFor('pth'))}`, { key: KEYS.owner }), shown: ['journal', 'journal file', 'log'] },
  { name: 'percent-encoded in a header', key: keyFor('hdr'), send: (sb) => sb.api('GET', '/v1/me', { key: KEYS.owner, headers: { 'x-note': percentUnderscores(keyFor('hdr')) } }), shown: ['journal', 'journal file'] },
  {
    name: 'fully percent-encoded in a form body', key: keyFor('frm'), shown: [],
    send: (sb) => call(sb.baseUrl, 'POST', '/api/v1/tools/run', { key: KEYS.owner, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `script_name=list_campaigns&note=${percentAll(keyFor('frm'))}` }),
  },
]

let sb: TestSandbox
let dir: string
const logLines: string[] = []
const texts = {} as Record<Place, string>

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'secrets-at-rest-'))
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) })
  sb = await startSandbox({ journalFile: join(dir, 'journal.jsonl'), logger })
  // Writes run at once, so results and before/after snapshots are recorded too.
  await sb.control.setPolicy('ws_acme', { hold: [] })
  for (const c of CASES) await c.send(sb)
  const journal = await sb.control.journal({ limit: 1000 })
  await vi.waitFor(() => expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(journal.length))
  texts.journal = JSON.stringify(journal)
  texts['journal file'] = readFileSync(join(dir, 'journal.jsonl'), 'utf8')
  texts.log = logLines.join('')
  texts['audit REST'] = (await sb.base('GET', '/api/v1/audit?limit=100', { key: KEYS.owner })).text
  texts['audit control plane'] = (await sb.base('GET', '/_sandbox/audit?limit=100')).text
  texts.state = await sb.stateText()
})
afterAll(async () => {
  await sb.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('secrets at rest, including disguised ones', () => {
  const PLACES: Place[] = ['journal', 'journal file', 'log', 'audit REST', 'audit control plane', 'state']
  it.each(CASES.flatMap((c) => PLACES.map((place) => [c.name, place, c] as const)))('a key %s never rests whole in the %s', (_name, place, c) => {
    expect(decodedAll(texts[place])).not.toContain(c.key.slice(12))
    if (c.shown.includes(place)) expect(decodedAll(texts[place])).toContain(masked(c.key))
  })

  it('records the write that carried a key as executed, with the masked name in its args and result', async () => {
    const page = (await sb.base('GET', '/api/v1/audit?script=google_ads_upload_image_asset', { key: KEYS.owner })).body
    expect(page.entries.map((e: { status: string }) => e.status)).toEqual(['executed', 'executed', 'executed', 'executed'])
    expect(JSON.stringify(page.entries[0].after ?? page.entries[0].result)).toContain(masked(keyFor('pct')))
  })

  it('runs an approved held write with the masked args it recorded', async () => {
    await sb.control.setPolicy('ws_acme', {})
    const key = keyFor('hld')
    const held = await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: run([key]) })
    expect(held.body.reviewed_args).toContain(masked(key))
    const approved = await sb.control.approve(held.body.audit_id, 'reviewer@acme.test')
    expect(approved.status).toBe('executed')
    expect(decodedAll(await sb.stateText())).not.toContain(key.slice(12))
  })

  it('stores a key value pasted into a review comment masked', async () => {
    await sb.control.setPolicy('ws_acme', {})
    const key = keyFor('rvw')
    const held = await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: run(['Spring banner']) })
    const rejected = await sb.base('POST', `/_sandbox/reviews/${held.body.audit_id}/reject`, { body: { reviewer: 'reviewer@acme.test', comment: `leaked ${percentUnderscores(key)}` } })
    expect(rejected.status).toBe(200)
    const state = decodedAll(await sb.stateText())
    expect(state).not.toContain(key.slice(12))
    expect(state).toContain(`leaked ${masked(key)}`)
  })
})

