import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import type { TestSandbox } from '../test-support/http.js'
import { startSandbox } from '../test-support/http.js'

// Authentication comes first on every public surface (RULES.md Authentication, AUTH-03): every
// authenticated operation of the contract, without a key or with a bad one, answers 401 whatever
// its body, query or path parameters say. Framing refusals (413, 431) are the only exceptions.

interface Operation {
  method: string
  path: string
  operationId: string
  tag: string
  security: Array<Record<string, unknown>>
  hasBody: boolean
}

const contract = parse(readFileSync(new URL('../../conformance/openapi.yaml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { operationId: string; tags: string[]; security?: Operation['security']; requestBody?: unknown }>>
}
const operations: Operation[] = Object.entries(contract.paths).flatMap(([path, methods]) =>
  Object.entries(methods).filter(([, op]) => op && typeof op === 'object' && op.operationId).map(([method, op]) => ({
    method: method.toUpperCase(), path, operationId: op.operationId, tag: op.tags[0], security: op.security ?? [], hasBody: op.requestBody !== undefined,
  })))

/** The contract's public operations (`security: []`): consent pages and hosted MCP's OAuth endpoints. */
// Public besides those: the sandbox's index (`GET /`) and its manual (`/docs/*`), which name URLs, never data.
const PUBLIC = ['sandboxIndex', 'sandboxDocsPage', 'viewConnectLink', 'redeemConnectLink', 'oauthMetadata', 'oauthResourceMetadata', 'oauthAuthorize', 'oauthSignIn', 'oauthToken', 'oauthRegister', 'oauthRevoke']
const isPublic = (op: Operation) => op.security.length === 0
const publicApi = operations.filter((op) => op.tag !== 'sandbox' && !isPublic(op))
// The console's one-time sign-in link is its own credential (console-doors.test.ts); every other control route needs the token.
const controlPlane = operations.filter((op) => op.tag === 'sandbox' && !isPublic(op))

/** A well-formed body per operation: what a signed-in caller could send and get a 2xx for. */
const VALID_BODIES: Record<string, unknown> = {
  runTool: { script_name: 'pull_google_ads', args: ['--days', '7'] },
  runToolBackend: { script_name: 'pull_google_ads', args: ['--days', '7'] },
  createKey: { name: 'agent', scopes: ['reporting:read'], expires_in_days: 30 },
  startConnectLink: { platform: 'google' },
  requestConnection: { platform: 'google' },
  approveWrite: { comment: 'ok' },
  rejectWrite: { comment: 'no' },
  pauseCampaign: { reason: 'test' },
  updateBudget: { daily_budget: 50 },
  stageAudienceArtifact: { body: ['a'.repeat(64)], identifier_type: 'EMAIL' },
  mcpPost: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
}
/** Every field any route reads, each with the wrong type or out of bounds. */
const WRONG_BODY = {
  script_name: 5, args: '--days 7', platform: 5, name: 5, scopes: ['no:such:scope'], expires_in_days: 9999, daily_budget: 'lots',
  body: 5, identifier_type: 'FAX', comment: 5, reason: 5, dry_run: 'yes', jsonrpc: 1, method: 5,
}
const WRONG_QUERY = '?limit=0&page=0&days=0&status=bogus&since=yesterday&start_date=2026-02-30&end_date=x&platform=meta&q=&unknown=1'
const VALID_IDS: Record<string, string> = { name: 'pull_google_ads', keyId: 'key_abc123', id: '8918621090' }

type BodyKind = 'valid' | 'wrong types' | 'malformed JSON'
type Credential = 'no key' | 'bad key'

function requestFor(op: Operation, credential: Credential, kind: BodyKind, badKey: Record<string, string>): { path: string; init: RequestInit } {
  const valid = kind === 'valid'
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => (valid ? VALID_IDS[name] ?? 'x1' : '..%2F%00%E2%80%AE'))
  const headers: Record<string, string> = credential === 'bad key' ? { ...badKey } : {}
  let body: string | undefined
  if (op.method !== 'GET' && op.method !== 'DELETE') {
    headers['content-type'] = 'application/json'
    body = kind === 'malformed JSON' ? '{"script_name": "pull_google_ads", "args": [' : JSON.stringify(valid ? (VALID_BODIES[op.operationId] ?? {}) : WRONG_BODY)
  }
  if (op.path === '/mcp') headers.accept = 'application/json, text/event-stream'
  return { path: valid ? path : `${path}${WRONG_QUERY}`, init: { method: op.method, headers, body } }
}

/** The header a bad key goes in: the one header every authenticated operation of the tag accepts. */
function badKeyHeader(op: Operation): Record<string, string> {
  const schemes = op.security.flatMap((s) => Object.keys(s))
  const bad = 'svc_test_notARealKey000000000000000000000'
  if (op.tag === 'sandbox') return { 'x-sandbox-admin': 'not-the-token' }
  return schemes.includes('bearer') ? { authorization: `Bearer ${bad}` } : { 'x-service-key': bad }
}

/** Rows `[name, credential, input, operation]`: no key and a bad key × valid and invalid input. */
function cases(ops: Operation[]): Array<[string, Credential, BodyKind, Operation]> {
  return ops.flatMap((op) => (['no key', 'bad key'] as const).flatMap((credential) =>
    (['valid', 'wrong types', 'malformed JSON'] as const)
      .filter((kind) => kind !== 'malformed JSON' || (op.method !== 'GET' && op.method !== 'DELETE'))
      .map((kind): [string, Credential, BodyKind, Operation] => [`${op.method} ${op.path}`, credential, kind, op])))
}

async function send(sb: TestSandbox, op: Operation, credential: Credential, kind: BodyKind) {
  const { path, init } = requestFor(op, credential, kind, badKeyHeader(op))
  const origin = op.path.startsWith('/v1/') || op.path.startsWith('/artifacts') ? sb.apiUrl : sb.baseUrl
  const res = await fetch(`${origin}${path}`, init)
  const text = await res.text()
  const requestId = res.headers.get('request-id')
  return { status: res.status, type: res.headers.get('content-type') ?? '', challenge: res.headers.get('www-authenticate'), requestId, body: JSON.parse(text || 'null') }
}

let sb: TestSandbox
let admin: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
  // Every row below is a wrong guess from one address: the guess limit is raised so each is a plain 401.
  admin = await startSandbox({ adminToken: 'the-admin-token', guessLimit: { burst: 10_000, per_second: 1 } })
})
afterAll(async () => {
  await sb.close()
  await admin.close()
})

describe('the contract lists which operations are public', () => {
  it('only the index, the manual, the consent pages and the OAuth endpoints take no credential', () => {
    expect(operations.filter((op) => op.tag !== 'sandbox' && isPublic(op)).map((op) => op.operationId).sort()).toEqual([...PUBLIC].sort())
    expect(publicApi.length).toBeGreaterThanOrEqual(25)
  })
})

describe('authenticate first on both hosts (RULES.md Authentication, AUTH-03)', () => {
  const rest = cases(publicApi.filter((op) => op.path !== '/mcp'))
  it.each(rest)('%s with %s and %s input is 401 AUTHENTICATION_REQUIRED', async (_name, credential, kind, op) => {
    const answer = await send(sb, op, credential, kind)
    // The hint names the accepted headers in `error`, `message` and `error_description` alike (issue 35).
    const hint = answer.body?.error
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: {
      error: expect.stringContaining('send the key in'), message: hint, error_description: hint, accepted_headers: expect.arrayContaining(['X-Service-Key']),
      code: 'AUTHENTICATION_REQUIRED', request_id: answer.requestId,
    } })
    expect(answer.requestId).toMatch(/^req_/)
    expect(answer.type).toMatch(/^application\/json/)
  })
})

describe('hosted MCP challenges before reading JSON-RPC (MCP-02)', () => {
  it.each(cases(publicApi.filter((op) => op.path === '/mcp')))('%s with %s and %s input is 401 with the OAuth challenge', async (_name, credential, kind, op) => {
    const answer = await send(sb, op, credential, kind)
    expect(answer.status).toBe(401)
    expect(answer.challenge).toMatch(/^Bearer .*resource_metadata=/)
    expect(answer.body).toMatchObject({ error: expect.any(String), request_id: answer.requestId })
  })
})

describe('the control plane asks for the admin token first', () => {
  it.each(cases(controlPlane))('%s with %s and %s input is 401 ADMIN_TOKEN_REQUIRED', async (_name, credential, kind, op) => {
    const answer = await send(admin, op, credential, kind)
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: { error: expect.any(String), code: 'ADMIN_TOKEN_REQUIRED', hint: expect.any(String), request_id: answer.requestId } })
  })
})
