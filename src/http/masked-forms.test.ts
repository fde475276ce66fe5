import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'

/**
 * Every masked form docs/security.md lists ("Secrets at rest") is masked in every field of every
 * stored record (issue 36: the mixed form `svc%5f\u0074est_…` was masked in a held write's `args`
 * but reached its `dedupe_key`, the state log and `GET /_sandbox/state`). One key value per form
 * is sent where records keep text (a held write's args, a key's name, a query value, a header),
 * then every record of every table, the state files, the journal, its file and the logs are
 * walked: none may spell the key once every escape is decoded.
 */
const keyFor = (tag: string) => `svc_test_${`${tag}7Kq`.repeat(8).slice(0, 32)}`
const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0')
const FORMS: Record<string, (key: string) => string> = {
  plain: (k) => k,
  'one \\u escape': (k) => `\\u0073${k.slice(1)}`,
  'every character \\u-escaped': (k) => [...k].map((c) => `\\u00${hex(c)}`).join(''),
  'upper-case \\u hex': (k) => [...k].map((c) => `\\u00${hex(c).toUpperCase()}`).join(''),
  'percent underscores': (k) => k.replaceAll('_', '%5F'),
  'every character percent-encoded, lower case': (k) => [...k].map((c) => `%${hex(c)}`).join(''),
  'every character percent-encoded, upper case': (k) => [...k].map((c) => `%${hex(c).toUpperCase()}`).join(''),
  'mixed (svc%5f\\u0074est_…)': (k) => `svc%5f\\u0074est_${k.slice(9)}`,
  'mixed, upper case': (k) => `svc%5F\\u0074EST_`.replace('EST', 'est') + k.slice(9).replace(/^(.)/, (c) => `%${hex(c).toUpperCase()}`),
}

/** `text` with `\uXXXX` (also behind escaped backslashes) and `%XX` decoded until nothing changes. */
function decodedAll(text: string): string {
  let last = ''
  let out = text
  while (out !== last) {
    last = out
    out = out.replace(/\\+u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
  }
  return out
}

/** Every string in a JSON value (object keys too), with where it was. */
function* strings(value: unknown, at: string): Generator<[string, string]> {
  if (typeof value === 'string') yield [at, value]
  else if (Array.isArray(value)) for (const [i, item] of value.entries()) yield* strings(item, `${at}[${i}]`)
  else if (value && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) {
      yield [`${at} (field name)`, name]
      yield* strings(item, `${at}.${name}`)
    }
  }
}

const forms = Object.entries(FORMS).map(([form, write], i) => ({ form, key: keyFor(`f${i}`), write }))
let sb: TestSandbox
let dir: string
const logLines: string[] = []
let stateDoc: unknown
const places: Record<string, string> = {}

/** Writes `written` as a JSON string's content (a form's backslashes are escapes JSON reads). */
const jsonBody = (script: string, args: string[], written: string) =>
  `{"script_name":"${script}","platform":"google","args":[${args.map((a) => JSON.stringify(a)).join(',')},"${written}"]}`

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'masked-forms-'))
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logLines.push(line) })
  sb = await startSandbox({ state: join(dir, 'state.json'), journalFile: join(dir, 'journal.jsonl'), logger })
  for (const { key, write } of forms) {
    const written = write(key)
    // In JSON text as written (JSON reads its `\u` escapes), and as a string holding them literally.
    for (const inJson of [written, JSON.stringify(written).slice(1, -1)]) {
      // A held write (the default policy holds `creative`): its args, its dedupe key, its audit entry.
      const held = await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: jsonBody('google_ads_upload_image_asset', ['--image-url', 'https://x.test/a.png', '--asset-name'], inJson) })
      expect([202, 400]).toContain(held.status)
      await sb.base('POST', '/api/v1/keys', { key: KEYS.owner, body: `{"name":"${inJson}","scopes":["tools:read"]}` })
    }
    await sb.api('GET', `/v1/campaigns?name=${written.replaceAll('\\', '%5C')}`, { key: KEYS.owner })
    await sb.api('GET', '/v1/me', { key: KEYS.owner, headers: { 'x-note': written } })
  }
  const journal = await sb.control.journal({ limit: 1000 })
  await vi.waitFor(() => expect(readFileSync(join(dir, 'journal.jsonl'), 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(journal.length))
  stateDoc = JSON.parse(await sb.stateText())
  places.journal = JSON.stringify(journal)
  places['audit REST'] = (await sb.base('GET', '/api/v1/audit?limit=100', { key: KEYS.owner })).text
  places['audit control plane'] = (await sb.base('GET', '/_sandbox/audit?limit=100')).text
  places.logs = logLines.join('')
  await sb.close()
  // The files as the next start reads them (the state document, its log, the checkpoint) and the journal file.
  for (const name of readdirSync(dir)) places[`file ${name}`] = readFileSync(join(dir, name), 'latin1')
})
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('every masked form is masked in every field of every stored record (issue 36)', () => {
  it('held the writes, so their records exist to be walked', () => {
    const audit = (stateDoc as { audit: Array<{ status: string; dedupe_key: string | null }> }).audit
    expect(audit.filter((e) => e.status === 'pending_review' && e.dedupe_key).length).toBeGreaterThanOrEqual(forms.length - 2)
  })

  it.each(forms)('$form: no field of any record of GET /_sandbox/state spells the key', ({ key }) => {
    const leaks = [...strings(stateDoc, 'state')].filter(([, text]) => decodedAll(text).includes(key.slice(12))).map(([at]) => at)
    expect(leaks).toEqual([])
  })

  it.each(forms)('$form: the state files, journal, journal file, audit answers and logs never spell the key', ({ key }) => {
    const leaks = Object.entries(places).filter(([, text]) => decodedAll(text).includes(key.slice(12))).map(([place]) => place)
    expect(leaks).toEqual([])
  })
})
