import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'

// A HEAD answer has headers only (RFC 9110 §9.3.2), refusals included: bytes after the head would be
// read as the next response on a kept-alive connection.

/** Sends one raw request with `Connection: close` and resolves with the status line and the bytes after the head. */
function rawHead(origin: string, path: string, headers = ''): Promise<{ status: number; after: string }> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = connect(Number(port), hostname, () => socket.write(`HEAD ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n${headers}\r\n`))
    socket.on('data', (c) => chunks.push(c)).on('error', reject).on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1')
      const split = text.indexOf('\r\n\r\n')
      resolve({ status: Number(text.slice(9, 12)), after: text.slice(split + 4) })
    })
  })
}

let sb: TestSandbox
beforeAll(async () => {
  sb = await startSandbox()
})
afterAll(() => sb.close())

describe('HEAD answers carry no body', () => {
  it.each([
    ['api', '/v1/me', '', 401],
    ['api', '/v1/campaigns', `Authorization: Bearer ${KEYS.owner}\r\n`, 200],
    ['api', '/v1/campaigns?limit=0', `Authorization: Bearer ${KEYS.owner}\r\n`, 400],
    ['api', '/v1/nope', '', 404],
    ['base', '/api/v1/keys', `Authorization: Bearer ${KEYS.owner}\r\nX-Service-Key: ${KEYS.agent}\r\n`, 400],
    ['base', '/api/v1/tools/run', '', 401],
    ['base', '/api/v1/keys', `X-Padding: ${'p'.repeat(20_000)}\r\n`, 431],
    ['base', '/api/v1/keys', 'Expect: teapot\r\n', 417],
  ] as const)('HEAD %s %s → %i, no body', async (host, path, headers, status) => {
    const answer = await rawHead(host === 'api' ? sb.apiUrl : sb.baseUrl, path, headers)
    expect(answer).toEqual({ status, after: '' })
  })
})
