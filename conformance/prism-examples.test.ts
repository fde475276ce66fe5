import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { OPENAPI_PATH } from './contract.js'
import { freePort } from './prism-proxy.js'
import { sleep } from './time.js'

/**
 * Prism's own mock of the contract serves its named examples (issue 19 item 4): the same
 * `Prefer: example=…` a client sends the sandbox gets the same body from `prism mock`.
 */

type Node = Record<string, any>
const doc = parse(readFileSync(OPENAPI_PATH, 'utf8'), { merge: true }) as Node
const example = (ref: Node, name: string) => {
  const response = ref.$ref ? doc.components.responses[ref.$ref.split('/').pop()] : ref
  return response.content['application/json'].examples[name].value
}
const AUTH = { authorization: 'Bearer svc_test_ownerAcme00000000000000000000000' }

let child: ChildProcess
let url: string
beforeAll(async () => {
  const port = await freePort()
  const bin = join(dirname(createRequire(import.meta.url).resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js')
  child = spawn(process.execPath, [bin, 'mock', '-h', '127.0.0.1', '-p', String(port), OPENAPI_PATH, '-v', 'warn'], { stdio: ['ignore', 'ignore', 'pipe'] })
  child.stderr?.resume()
  url = `http://127.0.0.1:${port}`
  // Prism takes seconds to start on a busy machine: poll its readiness instead of sleeping a fixed time.
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`prism mock exited with ${child.exitCode}`)
    if (await fetch(`${url}/v1/campaigns`, { headers: AUTH }).then((r) => r.status === 200, () => false)) return
    await sleep(200)
  }
  throw new Error('prism mock did not become ready within 60 s')
}, 70_000)
afterAll(() => {
  child?.kill('SIGTERM')
})

const run = { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"script_name":"list_campaigns"}' }

describe('prism mock conformance/openapi.yaml', () => {
  it('answers a route with its first example by default: the campaign list, not a generated body', async () => {
    const res = await fetch(`${url}/v1/campaigns`, { headers: AUTH })
    expect(await res.json()).toEqual(example(doc.paths['/v1/campaigns'].get.responses['200'], 'campaign-list'))
  })

  it.each([
    ['/v1/campaigns', { headers: { ...AUTH, prefer: 'example=empty-list' } }, 200, () => example(doc.paths['/v1/campaigns'].get.responses['200'], 'empty-list')],
    ['/api/v1/tools/run', { ...run, headers: { ...run.headers, prefer: 'code=202, example=held' } }, 202, () => example(doc.components.responses.Held, 'held')],
    ['/api/v1/tools/run', { ...run, headers: { ...run.headers, prefer: 'code=402, example=insufficient-credits' } }, 402, () => example(doc.components.responses.PaymentRequired, 'insufficient-credits')],
    ['/api/v1/tools/run', { ...run, headers: { ...run.headers, prefer: 'code=403, example=policy-blocked' } }, 403, () => example(doc.components.responses.ForbiddenOrBlocked, 'policy-blocked')],
  ] as const)('answers %s with the example a Prefer header names (%#)', async (path, init, status, expected) => {
    const res = await fetch(`${url}${path}`, init)
    expect(res.status).toBe(status)
    expect(await res.json()).toEqual(expected())
  })

  it('sends the 429 example with the contract\'s Retry-After example', async () => {
    const res = await fetch(`${url}/api/v1/tools/run`, { ...run, headers: { ...run.headers, prefer: 'code=429, example=rate-limited' } })
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(await res.json()).toMatchObject({ code: 'RATE_LIMITED', retry_after: 1 })
  })
})
