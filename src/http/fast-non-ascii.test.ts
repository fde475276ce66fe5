import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Twin } from '../test-support/twins.js'
import { COMPARED_HEADERS, closeTwins, journalOf, sendRaw, twin } from '../test-support/twins.js'
import { FastExchange } from './fast-path.js'
import { KEYS } from '../test-support/http.js'

/**
 * The fast paths against express with non-ASCII text in the request and the answer (issue 36: a
 * fast path giving `Content-Length` in characters instead of bytes passed every comparison, whose
 * bodies were all ASCII). Each answer must match express's byte for byte, its length header
 * included, and the fast path must be the one that answered.
 */
let fast: Twin
let plain: Twin
beforeAll(async () => {
  fast = await twin((sb) => sb.baseListener)
  plain = await twin((sb) => sb.baseApp)
})
afterAll(async () => closeTwins([fast, plain]))
afterEach(() => {
  vi.restoreAllMocks()
})

const NAMES = ['Été – 日本語のバナー', 'emoji 🌞🌊 banner', 'ÅÄÖ åäö ß']
const upload = (name: string) => JSON.stringify({ script_name: 'google_ads_upload_image_asset', platform: 'google', args: ['--image-url', 'https://x.test/a.png', '--asset-name', name] })

describe('fast paths answer non-ASCII text exactly as express does', () => {
  it.each(NAMES)('a held write named %j (202 on the fast dispatcher path)', async (name) => {
    const replies = vi.spyOn(FastExchange.prototype, 'replyAfterCommit')
    const sent = { path: '/api/v1/tools/run', key: KEYS.owner, body: upload(name) }
    const [a, b] = [await sendRaw(fast.server.url, sent), await sendRaw(plain.server.url, sent)]
    expect(replies).toHaveBeenCalledTimes(1)
    expect(a.status).toBe(202)
    expect(a.text).toContain(name)
    expect(a.text).toBe(b.text)
    expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.text))
    for (const header of COMPARED_HEADERS) expect(a.headers[header], header).toEqual(b.headers[header])
  })

  it('an unknown non-ASCII script name (a refusal naming it) and the audit list that shows the held writes', async () => {
    for (const sent of [
      { path: '/api/v1/tools/run', key: KEYS.owner, body: JSON.stringify({ script_name: 'scrïpt_日本', args: [] }) },
      { path: '/api/v1/audit?limit=10', key: KEYS.owner },
    ]) {
      const [a, b] = [await sendRaw(fast.server.url, sent), await sendRaw(plain.server.url, sent)]
      expect(a.text).toBe(b.text)
      expect(/[^\x00-\x7f]/.test(a.text)).toBe(true)
      expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.text))
    }
    expect(journalOf(fast.sb)).toEqual(journalOf(plain.sb))
  })
})
