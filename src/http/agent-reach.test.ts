import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, call, startSandbox } from '../test-support/http.js'
import { signIn } from '../mcp/sign-in-client.js'

// Issue 33 item 2: nothing on the agent's surfaces decides for a person. Every route of the contract
// and of the control plane, with no credential and with the agent's key in every header it could
// go in, leaves the person's side of the state as it was: no review decided, no policy, limit,
// clock, world, people or other user's key changed.

interface Operation {
  method: string
  path: string
}

const contract = parse(readFileSync(new URL('../../conformance/openapi.yaml', import.meta.url), 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> }
const documented: Operation[] = Object.entries(contract.paths).flatMap(([path, methods]) =>
  Object.entries(methods).filter(([, op]) => op?.operationId).map(([method]) => ({ method: method.toUpperCase(), path })))

const AGENT = KEYS.agent
const CREDENTIALS: Array<[string, Record<string, string>]> = [
  ['no credential', {}],
  ['the agent key as Bearer', { authorization: `Bearer ${AGENT}` }],
  ['the agent key as X-Service-Key', { 'x-service-key': AGENT }],
  ['the agent key as X-API-Key', { 'x-api-key': AGENT }],
  ['the agent key as X-Sandbox-Admin', { 'x-sandbox-admin': AGENT }],
]

let sb: TestSandbox
let operations: Operation[]
/** Real ids for path parameters: the agent's own held write, another user's key and membership, … */
const ids: Record<string, string> = {}

beforeAll(async () => {
  // Hundreds of wrong credentials from one address: the guess limit is raised (admin-doors.test.ts tests it).
  sb = await startSandbox({ guessLimit: { burst: 100_000, per_second: 1 } })
  const state = await sb.control.request<State>('GET', '/state')
  const paused = state.campaigns.find((c) => c.status === 'PAUSED' && c.workspace_id === 'ws_acme')!
  const held = await sb.base('POST', '/api/v1/tools/run', { key: AGENT, body: { script_name: 'enable_campaign', args: ['--campaign-id', paused.id], platform: 'google' } })
  expect(held.status).toBe(202)
  const fault = await sb.control.addFault({ match: { path: '/v1/never-called' }, sequence: [{ status: 503 }] })
  const copy = await sb.control.copyWorld()
  const page = (await sb.control.landingPages('ws_acme')).landing_pages[0]
  Object.assign(ids, {
    audit: held.body.audit_id, campaign: paused.id, workspace: 'ws_acme', fault: fault.id, suffix: copy.suffix, page: page.page_id,
    reyKey: state.keys.find((k) => k.user_id === 'usr_rey')!.id, reyMembership: state.memberships.find((m) => m.user_id === 'usr_rey')!.id,
  })
  // The control plane's own list, in case a route is missing from the contract.
  const listed = (await sb.control.request<{ routes: string[] }>('GET', '/')).routes.map((r) => {
    const [method, path] = r.split(' ')
    return { method, path: path.replace(/:(\w+)/g, '{$1}') }
  })
  const seen = new Set<string>()
  operations = [...documented, ...listed].filter((op) => !seen.has(`${op.method} ${op.path}`) && seen.add(`${op.method} ${op.path}`))
})
afterAll(() => sb.close())

function pathFor(op: Operation): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === 'suffix') return ids.suffix
    if (name === 'page_id') return ids.page
    if (name === 'keyId') return ids.reyKey
    if (name === 'name') return 'pause_campaign'
    if (name === 'page') return 'getting-started.md'
    if (op.path.includes('/memberships/')) return ids.reyMembership
    if (op.path.includes('/faults/')) return ids.fault
    if (op.path.includes('/workspaces/')) return ids.workspace
    if (op.path.includes('/campaigns/')) return ids.campaign
    if (op.path.includes('/audit/') || op.path.includes('/reviews/')) return ids.audit
    return 'x1'
  })
}

/** A body the person could send to get a 2xx (or an agent for its own work): the strongest try. */
function bodyFor(op: Operation, state: unknown): unknown {
  const p = op.path
  const bodies: Array<[RegExp, unknown]> = [
    [/reviews\/.*\/(approve|reject)$/, { reviewer: 'Agent Smith' }],
    [/audit\/.*\/(approve|reject)$/, { comment: 'looks fine to me' }],
    [/^\/_sandbox\/state$/, state],
    [/^\/_sandbox\/reset$/, { world: 'default' }],
    [/^\/_sandbox\/users$/, { email: 'mallory@agent.test', name: 'Mallory' }],
    [/^\/_sandbox\/workspaces$/, { id: 'ws_mallory', name: 'Mallory', owner_user_id: 'usr_olivia' }],
    [/^\/_sandbox\/memberships$/, { user_id: 'usr_olivia', workspace_id: 'ws_acme', role: 'owner' }],
    [/^\/_sandbox\/keys$/, { user_id: 'usr_rey', workspace_id: 'ws_acme', scopes: ['workspace:read', 'workspace:write'] }],
    [/clock$/, { advance: '96h' }],
    [/policy$/, { block_tools: [], hold: [] }],
    [/credits$/, { balance: 1_000_000, payment_method: true }],
    [/rate-limits$/, { per_key: null, per_workspace: null }],
    [/^\/_sandbox\/faults$/, { match: { path: '/v1/me' }, sequence: [{ status: 503 }] }],
    [/world-copies$/, {}],
    [/landing-pages\/\{page_id\}$/, { title: 'Agent was here' }],
    [/tools\/run$/, { script_name: 'enable_campaign', args: ['--campaign-id', ids.campaign], platform: 'google' }],
    [/\/api\/v1\/keys$/, { name: 'more', scopes: ['workspace:write'], expires_in_days: 30 }],
    [/\/mcp$/, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'agent', version: '1' } } }],
  ]
  return bodies.find(([pattern]) => pattern.test(p))?.[1] ?? {}
}

interface State {
  meta: unknown
  users: unknown[]
  workspaces: Array<{ credits: { payment_method: boolean } } & Record<string, unknown>>
  memberships: Array<{ id: string; user_id: string }>
  keys: Array<{ id: string; user_id: string; last_used_at: string | null }>
  campaigns: Array<{ id: string; status: string; workspace_id: string }>
  audit: Array<{ id: string; status: string; review: unknown }>
  faults: unknown[]
}

/** What only a person may change: reviews, policy, limits, clocks, world, people and other users' keys. */
function personSide(state: State): unknown {
  return {
    meta: state.meta,
    users: state.users,
    workspaces: state.workspaces.map(({ credits, ...w }) => ({ ...w, payment_method: credits.payment_method })),
    memberships: state.memberships,
    others_keys: state.keys.filter((k) => k.user_id !== 'usr_olivia').map(({ last_used_at: _used, ...k }) => k),
    decided: state.audit.filter((a) => a.review !== null).map((a) => ({ id: a.id, status: a.status, review: a.review })),
    held: state.audit.filter((a) => a.id === ids.audit).map((a) => ({ status: a.status, review: a.review })),
    faults: state.faults,
  }
}

async function send(op: Operation, headers: Record<string, string>, state: unknown): Promise<number> {
  const origin = op.path.startsWith('/v1/') || op.path.startsWith('/artifacts') ? sb.apiUrl : sb.baseUrl
  const hasBody = !['GET', 'HEAD', 'DELETE'].includes(op.method)
  const extra: Record<string, string> = op.path === '/mcp' ? { accept: 'application/json, text/event-stream' } : {}
  const answer = await call(origin, op.method, pathFor(op), { headers: { ...headers, ...extra }, body: hasBody ? bodyFor(op, state) : undefined })
  return answer.status
}

describe('the agent\'s surfaces decide nothing for a person (issue 33)', () => {
  it('enumerates the whole contract and the whole control plane', () => {
    expect(operations.length).toBeGreaterThan(90)
    expect(operations.filter((op) => op.path.startsWith('/_sandbox')).length).toBeGreaterThan(45)
  })

  it('every route, with no credential and with the agent key in every header, leaves the person\'s side as it was and never answers 5xx', async () => {
    const changed: string[] = []
    const failed: string[] = []
    let before = await sb.control.request<State>('GET', '/state')
    for (const op of operations) {
      // The credentials of one route go at once: each is refused or harmless alone, and together too.
      const statuses = await Promise.all(CREDENTIALS.map(([, headers]) => send(op, headers, before)))
      CREDENTIALS.forEach(([name], i) => {
        if (statuses[i] >= 500) failed.push(`${op.method} ${op.path} with ${name}: ${statuses[i]}`)
        if (op.path.startsWith('/_sandbox') && op.path !== '/_sandbox/console/sign-in' && statuses[i] !== 401) failed.push(`${op.method} ${op.path} with ${name}: ${statuses[i]}, not 401`)
      })
      const after = await sb.control.request<State>('GET', '/state')
      if (JSON.stringify(personSide(after)) !== JSON.stringify(personSide(before))) changed.push(`${op.method} ${op.path}`)
      before = after
    }
    expect(failed).toEqual([])
    expect(changed).toEqual([])
    // The agent's own held write is still waiting for a person.
    expect((await sb.control.request<{ status: string }>('GET', `/audit/${ids.audit}`)).status).toBe('pending_review')
  })

  it('with the admin token the same sweep would have changed the person\'s side: the sweep can see a change', async () => {
    const before = await sb.control.request<State>('GET', '/state')
    await sb.base('POST', `/_sandbox/reviews/${ids.audit}/reject`, { body: { reviewer: 'Rey Reviewer' } })
    const after = await sb.control.request<State>('GET', '/state')
    expect(JSON.stringify(personSide(after))).not.toBe(JSON.stringify(personSide(before)))
  })

  it('an agent walking hosted MCP\'s OAuth sign-in without the admin token gets no code', async () => {
    await expect(signIn(sb.baseUrl, { account: 'usr_rey ws_acme' })).rejects.toThrow(/sign-in answered (401|403)/)
  })
})
