import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Listening } from './listen.js'
import { isLoopback, listen } from './listen.js'

describe('isLoopback parses addresses exactly', () => {
  it.each([
    ['localhost', true], ['LOCALHOST', true], ['127.0.0.1', true], ['127.255.255.254', true], ['::1', true], ['[::1]', true],
    ['0:0:0:0:0:0:0:1', true], ['::ffff:127.0.0.1', true], ['[::ffff:7f00:1]', true],
    ['127.0.0.1.nip.io', false], ['127.evil.example', false], ['127.1', false], ['127.0.0.256', false], ['localhost.example.com', false],
    ['0.0.0.0', false], ['::', false], ['128.0.0.1', false], ['::ffff:10.0.0.1', false], ['10.0.0.1', false], ['', false],
  ])('%s → %s', (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback)
  })
})

/** Writes raw HTTP/1.1 bytes and resolves with everything the server sent until it closed. */
function rawExchange(server: Listening, ...packets: string[]): Promise<{ head: string; body: string }> {
  const { port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = connect(Number(port), '127.0.0.1', () => {
      for (const packet of packets) socket.write(packet)
    })
    socket.on('data', (chunk) => chunks.push(chunk)).on('error', reject).on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const split = text.indexOf('\r\n\r\n')
      resolve({ head: text.slice(0, split), body: text.slice(split + 4) })
    })
  })
}

describe('refusals Node answers before any handler', () => {
  let server: Listening
  beforeAll(async () => {
    server = await listen((_req, res) => res.end('handled'), '127.0.0.1', 0)
  })
  afterAll(() => server.close())

  const bigHeader = `X-Padding: ${'p'.repeat(20_000)}\r\n`

  it('answers an unknown Expect value with a JSON 417 {error, code}', async () => {
    const answer = await rawExchange(server, 'POST /x HTTP/1.1\r\nHost: a\r\nExpect: teapot\r\nRequest-Id: ci-7\r\nContent-Length: 2\r\n\r\n{}')
    expect(answer.head).toMatch(/^HTTP\/1.1 417 /)
    expect(answer.head).toMatch(/content-type: application\/json/i)
    expect(answer.head).toMatch(/\r\nrequest-id: ci-7\r\n/i)
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringContaining('100-continue'), code: 'EXPECTATION_FAILED', request_id: 'ci-7' })
  })

  it('answers HEAD with an unknown Expect value with a 417 and no body', async () => {
    const answer = await rawExchange(server, 'HEAD /x HTTP/1.1\r\nHost: a\r\nExpect: teapot\r\n\r\n')
    expect(answer.head).toMatch(/^HTTP\/1.1 417 /)
    expect(answer.body).toBe('')
  })

  it('answers oversized headers with a JSON 431', async () => {
    const answer = await rawExchange(server, `GET /x HTTP/1.1\r\nHost: a\r\n${bigHeader}\r\n`)
    expect(answer.head).toMatch(/^HTTP\/1.1 431 /)
    // The headers were never parsed, so the answer names itself with a new id, in header and body alike.
    const id = /\r\nrequest-id: (req_[\w-]+)\r\n/i.exec(answer.head)?.[1]
    expect(id).toBeDefined()
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'HEADERS_TOO_LARGE', error: expect.any(String), request_id: id })
  })

  it('answers HEAD with oversized headers with a 431 and no body', async () => {
    const answer = await rawExchange(server, `HEAD /x HTTP/1.1\r\nHost: a\r\n${bigHeader}\r\n`)
    expect(answer.head).toMatch(/^HTTP\/1.1 431 /)
    expect(answer.head).toMatch(/content-length: \d+/i)
    expect(answer.body).toBe('')
  })

  it('answers HEAD with garbage in its headers with a 400 and no body', async () => {
    const answer = await rawExchange(server, 'HEAD /x HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n')
    expect(answer.head).toMatch(/^HTTP\/1.1 400 /)
    expect(answer.body).toBe('')
  })

  it('answers malformed HTTP with a JSON 400', async () => {
    const answer = await rawExchange(server, 'GET /x HTTP/1.1\r\nHost: a\r\nBad Header\r\n\r\n')
    expect(answer.head).toMatch(/^HTTP\/1.1 400 /)
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'INVALID_REQUEST' })
  })

  // Issue 36: Node's own answer to a missing Host was a bare 400 with no body; CONNECT got none at all.
  it.each(['GET', 'POST', 'DELETE'])('answers an HTTP/1.1 %s without Host with a JSON 400 naming the header', async (method) => {
    const answer = await rawExchange(server, `${method} /x HTTP/1.1\r\nRequest-Id: ci-8\r\n${method === 'POST' ? 'Content-Length: 2\r\n\r\n{}' : '\r\n'}`)
    expect(answer.head).toMatch(/^HTTP\/1.1 400 /)
    expect(answer.head).toMatch(/content-type: application\/json/i)
    expect(JSON.parse(answer.body)).toEqual({ error: expect.stringContaining('Host'), code: 'INVALID_REQUEST', request_id: 'ci-8' })
  })

  it('answers HEAD without Host with a 400 and no body, and lets HTTP/1.0 without Host through', async () => {
    const head = await rawExchange(server, 'HEAD /x HTTP/1.1\r\n\r\n')
    expect(head.head).toMatch(/^HTTP\/1.1 400 /)
    expect(head.body).toBe('')
    const old = await rawExchange(server, 'GET /x HTTP/1.0\r\n\r\n')
    expect(old.body).toBe('handled')
  })

  it('answers CONNECT with a JSON 405 instead of closing the connection silently', async () => {
    const answer = await rawExchange(server, 'CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n')
    expect(answer.head).toMatch(/^HTTP\/1.1 405 /)
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'METHOD_NOT_ALLOWED', method: 'CONNECT' })
  })
})
