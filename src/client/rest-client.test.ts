import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'
import { RestClient } from './rest-client.js'
import { ServiceError } from './errors.js'
import { toFlags } from './flags.js'

const OWNER = 'svc_test_ownerAcme00000000000000000000000'

describe('toFlags (SDK-01)', () => {
  it.each([
    [{ days: 7 }, ['--days', '7']],
    [{ campaign_id: 'c1', daily_budget: 12.5 }, ['--campaign-id', 'c1', '--daily-budget', '12.5']],
    [{ start_date: '2026-01-01', end_date: undefined, x: null }, ['--start-date', '2026-01-01']],
    [{ validate_only: true, dry_run: false }, ['--validate-only']],
    [{ keyword: ['a', 'b'] }, ['--keyword', 'a', '--keyword', 'b']],
  ])('%j → %j', (input, flags) => {
    expect(toFlags(input)).toEqual(flags)
  })
})

describe('RestClient against the sandbox', () => {
  let sb: RunningSandbox
  let client: RestClient
  beforeEach(async () => {
    sb = await createSandbox()
    client = new RestClient({ apiKey: OWNER, baseUrl: sb.baseUrl, apiUrl: `${sb.apiUrl}/` })
  })
  afterEach(async () => {
    await sb.close()
  })

  it('posts script_name, kebab-case flags in order and platform with Authorization: Bearer (SDK-01, SDK-05)', async () => {
    const result = await client.execute('list_campaigns', { platform: 'google', status: 'ENABLED' }, 'google')
    expect(result).toMatchObject({ sandbox: true })
    const [sent] = await sb.control.journal({ path: '/api/v1/tools/run' })
    expect(sent.request.body).toEqual({ script_name: 'list_campaigns', args: ['--platform', 'google', '--status', 'ENABLED'], platform: 'google' })
    expect(sent.request.headers.authorization).toMatch(/^Bearer svc_test_own/)
  })

  it('returns a held write (202) as data: the caller must check status (SDK-02, SDK-09)', async () => {
    const listed = await client.execute('list_campaigns', { platform: 'google', status: 'PAUSED' }, 'google')
    const [paused] = listed.campaigns as Array<{ campaign_id: string }>
    const held = await client.execute('enable_campaign', { campaign_id: paused.campaign_id }, 'google')
    expect(held).toMatchObject({ status: 'pending_review', audit_id: expect.any(String) })
  })

  it('raises a ServiceError carrying status and code for any other status (SDK-02)', async () => {
    const error = await client.execute('update_campaign_budget', { campaign_id: 'x', budget: 5 }, 'google').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({ status: 400, code: 'UNRECOGNIZED_ARGS' })
    const denied = await new RestClient({ apiKey: 'svc_test_nope0000000000000000000000000000', baseUrl: sb.baseUrl, apiUrl: sb.apiUrl })
      .getApi('/v1/credits').catch((e: unknown) => e)
    expect(denied).toMatchObject({ status: 401, code: 'AUTHENTICATION_REQUIRED' })
  })

  it('reads GET helpers on both hosts and stages artifacts with X-Service-Key only', async () => {
    expect(await client.getApi('/v1/credits')).toMatchObject({ workspace_id: 'ws_acme' })
    expect(await client.getBase('/api/v1/landing-pages')).toMatchObject({ sandbox: true })
    expect(await client.stageAudienceArtifact({ body: ['c'.repeat(64)] })).toMatchObject({ record_count: 1 })
    const [sent] = await sb.control.journal({ path: '/artifacts/audience-sync-input' })
    expect(sent.request.headers['x-service-key']).toMatch(/^svc_test_own/)
    expect(sent.request.headers.authorization).toBeUndefined()
  })
})

describe('RestClient and a body that is not JSON', () => {
  it('raises INVALID_RESPONSE with the status', async () => {
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const error = await new RestClient({ apiKey: OWNER, baseUrl: url, apiUrl: url }).getApi('/v1/me').catch((e: unknown) => e)
      expect(error).toMatchObject({ status: 200, code: 'INVALID_RESPONSE' })
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })
})
