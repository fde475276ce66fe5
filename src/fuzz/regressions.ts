import type { RawRequest } from './target.js'
import { ADMIN_TOKEN } from './target.js'

const OWNER = 'svc_test_ownerAcme00000000000000000000000'
const deep = (depth: number) => Buffer.from(`${'['.repeat(depth)}${']'.repeat(depth)}`)

/**
 * Requests that once broke an invariant (docs/reliability.md, Known findings), replayed in order
 * before the random ones of every fuzz run, so a fixed finding stays fixed whatever the seed.
 */
const REQUESTS: RawRequest[] = [
  // 500: the admin token compared byte-wise with a header of the same length in characters (762d0ef).
  { host: 'base', method: 'GET', path: '/_sandbox/info', headers: { 'x-sandbox-admin': Buffer.from(`${ADMIN_TOKEN.slice(0, -1)}é`).toString('latin1') } },
  { host: 'base', method: 'HEAD', path: '/_sandbox/outbox', headers: { 'x-sandbox-admin': Buffer.from(`${ADMIN_TOKEN.slice(0, -1)}é`).toString('latin1') } },
  // Node's bare 417 for an unknown Expect (d8efeb2).
  { host: 'api', method: 'GET', path: '/v1/me', headers: { expect: 'teapot', authorization: `Bearer ${OWNER}` } },
  // A 5 000-deep body journaled, then the journal read (cc2f4ba).
  { host: 'base', method: 'POST', path: '/api/v1/tools/run', headers: { 'content-type': 'application/json', authorization: `Bearer ${OWNER}` }, body: deep(5000) },
  { host: 'base', method: 'GET', path: '/_sandbox/journal', headers: { 'x-sandbox-admin': ADMIN_TOKEN } },
  { host: 'base', method: 'HEAD', path: '/_sandbox/journal', headers: { 'x-sandbox-admin': ADMIN_TOKEN } },
]

export const REGRESSIONS: RawRequest[] = REQUESTS.map((req) => ({ ...req, operation: 'regression' }))
