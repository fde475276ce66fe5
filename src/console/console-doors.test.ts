import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, call, startSandbox } from '../test-support/http.js'

// Issue 33: the console is the person's; a browser signs in once through the link the sandbox printed.

let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox({ guessLimit: { burst: 1000, per_second: 1 } })
})
afterAll(() => sb.close())

const ticketPath = (link: string) => new URL(link).pathname + new URL(link).search

/** Opens a link as a browser would (no redirect following) and returns the session cookie it set. */
async function signIn(link: string): Promise<{ status: number; location: string | null; setCookie: string; cookie: string }> {
  const res = await fetch(link, { redirect: 'manual' })
  const setCookie = res.headers.get('set-cookie') ?? ''
  return { status: res.status, location: res.headers.get('location'), setCookie, cookie: setCookie.split(';')[0] }
}

describe('the console without sign-in', () => {
  it('serves the shell, which holds no data, and refuses every data call with 401', async () => {
    const shell = await call(sb.baseUrl, 'GET', '/_sandbox/console/')
    expect(shell.status).toBe(200)
    expect(shell.text).not.toMatch(/Acme|svc_test_|ws_acme/)
    for (const path of ['/_sandbox/console/overview', '/_sandbox/console/queue', '/_sandbox/console/journal', '/_sandbox/console/transcript', '/_sandbox/audit']) {
      const answer = await call(sb.baseUrl, 'GET', path)
      expect(answer.status, path).toBe(401)
      expect(answer.body.code, path).toBe('ADMIN_TOKEN_REQUIRED')
    }
  })
})

describe('the one-time console link', () => {
  it('sets an HttpOnly, SameSite=Strict session cookie for /_sandbox and redirects to the console', async () => {
    const first = await signIn(sb.consoleLink())
    expect(first.status).toBe(303)
    expect(first.location).toBe('/_sandbox/console/')
    expect(first.setCookie).toMatch(/^sandbox_console=[\w-]{43};/)
    expect(first.setCookie).toMatch(/; HttpOnly/)
    expect(first.setCookie).toMatch(/; SameSite=Strict/)
    expect(first.setCookie).toMatch(/; Path=\/_sandbox/)
    const queue = await call(sb.baseUrl, 'GET', '/_sandbox/console/queue', { headers: { cookie: first.cookie } })
    expect(queue.status).toBe(200)
    expect(queue.body.entries).toEqual([])
  })

  it('works once: a reused link is 401 CONSOLE_LINK_INVALID (JSON, or a page for a browser) and sets no cookie', async () => {
    const link = sb.consoleLink()
    expect((await signIn(link)).status).toBe(303)
    const again = await signIn(link)
    expect(again.status).toBe(401)
    expect(again.setCookie).toBe('')
    const json = await call(sb.baseUrl, 'GET', ticketPath(link))
    expect(json.body).toMatchObject({ code: 'CONSOLE_LINK_INVALID', hint: expect.stringContaining('POST /_sandbox/console/links') })
    const page = await call(sb.baseUrl, 'GET', ticketPath(link), { headers: { accept: 'text/html' } })
    expect(page.status).toBe(401)
    expect(page.text).toContain('each link signs in once')
  })

  it.each([['no ticket', ''], ['an empty ticket', '?ticket='], ['a made-up ticket', '?ticket=abc'], ['the admin token as the ticket', 'TOKEN']])(
    'refuses %s with 401', async (_name, query) => {
      const search = query === 'TOKEN' ? `?ticket=${encodeURIComponent(sb.adminToken!)}` : query
      const answer = await call(sb.baseUrl, 'GET', `/_sandbox/console/sign-in${search}`)
      expect(answer.status).toBe(401)
      expect(answer.body.code).toBe('CONSOLE_LINK_INVALID')
    })

  it('lets a cookie write only from the console\'s own origin (a same-site page on another port cannot)', async () => {
    const { cookie } = await signIn(sb.consoleLink())
    const origin = new URL(sb.baseUrl).origin
    const mint = (headers: Record<string, string>) => call(sb.baseUrl, 'POST', '/_sandbox/console/links', { headers: { cookie, ...headers }, body: {} })
    expect((await mint({})).status).toBe(401)
    expect((await mint({ origin: sb.apiUrl })).status).toBe(401)
    expect((await mint({ origin: 'null' })).status).toBe(401)
    const own = await mint({ origin })
    expect(own.status).toBe(201)
    expect((await signIn(own.body.url)).status).toBe(303)
  })

  it('mints a fresh link with the admin token (POST /_sandbox/console/links), never with an agent key', async () => {
    const minted = await sb.base('POST', '/_sandbox/console/links', { body: {} })
    expect(minted).toMatchObject({ status: 201, body: { url: expect.stringContaining(`${sb.baseUrl}/_sandbox/console/sign-in?ticket=`), uses: 1 } })
    const byAgent = await call(sb.baseUrl, 'POST', '/_sandbox/console/links', { key: KEYS.agent, body: {} })
    expect(byAgent.status).toBe(401)
  })

  it('counts wrong tickets as guesses: past the limit even a good link waits (429)', async () => {
    const guarded = await startSandbox({ guessLimit: { burst: 3, per_second: 0.01 } })
    try {
      const statuses: number[] = []
      for (let i = 0; i < 5; i++) statuses.push((await call(guarded.baseUrl, 'GET', `/_sandbox/console/sign-in?ticket=guess${i}`)).status)
      expect(statuses).toEqual([401, 401, 401, 429, 429])
      const good = await signIn(guarded.consoleLink())
      expect(good.status).toBe(429)
      expect(good.setCookie).toBe('')
    } finally {
      await guarded.close()
    }
  })

  it('needs no sign-in when the control plane was opened on purpose', async () => {
    const open = await startSandbox({ openControlPlane: true })
    try {
      const res = await signIn(`${open.baseUrl}/_sandbox/console/sign-in`)
      expect(res).toMatchObject({ status: 303, location: '/_sandbox/console/', setCookie: '' })
    } finally {
      await open.close()
    }
  })
})
