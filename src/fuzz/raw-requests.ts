import { connect } from 'node:net'
import fc from 'fast-check'
import { ADMIN_TOKEN, startFuzzTarget } from './target.js'
import type { FuzzTarget } from './target.js'

/**
 * Requests Node's HTTP client would never send, written byte for byte on a socket (issue 36):
 * without `Host`, with odd versions and methods (CONNECT, lower case), broken header lines, bare
 * LF, NUL and control bytes, conflicting lengths, broken chunking, absolute and asterisk targets.
 * Whatever arrives, the answer must come, be below 500, and be JSON `{error, code}` when it refuses.
 */
export interface RawText {
  host: 'base' | 'api'
  /** The bytes as latin-1 text. */
  text: string
}

export interface RawAnswer {
  status: number
  contentType: string
  body: string
  /** Set when nothing (or no status line) came back in time. */
  failure?: string
}

const OWNER = 'svc_test_ownerAcme00000000000000000000000'
const PATHS = ['/v1/me', '/api/v1/tools/run', '/api/v1/keys', '/v1/campaigns', '/mcp', '/_sandbox/state', '/_sandbox/clock', '/connect/abc', '/register', '/token', '/', '*', 'v1/me', 'http://127.0.0.1/v1/me', '/%zz', '/v1/me?q=%5Cu0073vc_test_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']
// `PRI` opens an HTTP/2 preface the parser waits to see whole: its one complete form is an example in the test.
const METHODS = ['GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'CONNECT', 'get', 'FOO', '']
const VERSIONS = ['HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1.1x', '']
const HOSTS = [null, null, '127.0.0.1', 'localhost', '', 'a b', 'evil.example', '127.0.0.1/x']
const LINES = [
  'Authorization: Bearer ' + OWNER, 'X-Service-Key: ' + OWNER, 'X-Sandbox-Admin: ' + ADMIN_TOKEN, 'Content-Type: application/json',
  'Content-Type: application/json; charset=klingon', 'Content-Type: application/x-www-form-urlencoded', 'Transfer-Encoding: chunked',
  'Transfer-Encoding: chunked, gzip', 'Content-Length: 2', 'Content-Length: -1', 'Content-Length: 1', 'Content-Encoding: gzip', 'Expect: 100-continue',
  'Expect: teapot', 'Connection: Upgrade', 'Upgrade: websocket', 'Upgrade: h2c', 'Broken header', 'X-A : b', ' folded', 'X-Nul: a\x00b', 'X-Ctl: \x01\x7f',
  'X-Note: svc%5f\\u0074est_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'Origin: null', 'Accept: application/json, text/event-stream', 'Host: 127.0.0.1',
]
const BODIES = ['', '{}', '{x', '0\r\n\r\n', 'zz\r\n\r\n', '{"jsonrpc":"2.0","id":1,"method":"initialize"}', 'a=b', '\x00\x01']

/** One raw request: a request line, an optional Host, a few header lines, a body, with CRLF or bare LF. */
export function rawRequest(): fc.Arbitrary<RawText> {
  return fc.record({
    host: fc.constantFrom<'base' | 'api'>('base', 'api'),
    method: fc.constantFrom(...METHODS),
    path: fc.constantFrom(...PATHS),
    version: fc.constantFrom(...VERSIONS),
    hostLine: fc.constantFrom(...HOSTS),
    lines: fc.subarray(LINES, { maxLength: 5 }),
    body: fc.constantFrom(...BODIES),
    eol: fc.constantFrom('\r\n', '\r\n', '\n'),
  }).map(({ host, method, path, version, hostLine, lines, body, eol }) => {
    const head = [[method, path, version].filter(Boolean).join(' '), ...(hostLine === null ? [] : [`Host: ${hostLine}`]), ...lines]
    return { host, text: `${head.join(eol)}${eol}${eol}${body}` }
  })
}

/** Writes `raw` on a fresh socket and reads until the server closes or `timeoutMs` passes. */
export function sendRawText(origin: string, raw: RawText, timeoutMs = 10_000): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin)
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let settled = false
    // A request whose body is cut short is a client giving up: it half-closes, and may get no answer.
    // A whole one keeps its side open, as real clients do, so the answer has a socket to arrive on.
    const whole = isWhole(raw.text)
    const bytes = Buffer.from(raw.text, 'latin1')
    const socket = connect(Number(port), hostname, () => (whole ? socket.write(bytes) : socket.end(bytes)))
    const finish = () => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      const answer = parseAnswer(Buffer.concat(chunks).toString('latin1'))
      resolve(!whole && answer.failure === 'no answer' ? { ...answer, failure: undefined } : answer)
    }
    // A server that keeps the connection open after answering: read what came, then stop waiting.
    const timer = setTimeout(finish, timeoutMs)
    const head = /^HEAD /i.test(raw.text)
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      if (answerComplete(Buffer.concat(chunks).toString('latin1'), head)) finish()
    })
    socket.on('close', finish).on('error', finish)
  })
}

/**
 * Whether the text is exactly one request: its body is as long as it says (none without a length).
 * Extra bytes are a second, pipelined request, whose refusal may come before the first one's answer.
 */
export function isSingle(text: string): boolean {
  const split = /\r?\n\r?\n/.exec(text)
  if (!split) return true
  const head = text.slice(0, split.index)
  const body = text.slice(split.index + split[0].length)
  if (/\ntransfer-encoding:/i.test(head)) return /^0\r?\n\r?\n$/.test(body)
  return body.length === Number(/\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
}

/** Whether the request's body is all there (its first Content-Length, or a chunked body's last chunk). */
function isWhole(text: string): boolean {
  const split = /\r?\n\r?\n/.exec(text)
  if (!split) return false
  const head = text.slice(0, split.index)
  // Without a version (HTTP/0.9 style) a body runs to the end of the connection: only a close ends it.
  if (!/^\S+ \S+ HTTP\/\d/.test(head)) return false
  const body = text.slice(split.index + split[0].length)
  const length = /\ncontent-length: *(-?\d+)/i.exec(head)
  if (/\ntransfer-encoding: *chunked/i.test(head)) return /(^|\n)0\r?\n\r?\n/.test(body)
  return !length || body.length >= Number(length[1])
}

/** The text without interim answers (`100 Continue`), which precede the one that counts. */
const skipInterim = (text: string) => text.replace(/^(HTTP\/1\.[01] 1\d\d[^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, '')

function parseAnswer(whole: string): RawAnswer {
  const text = skipInterim(whole)
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)
  if (!status) return { status: 0, contentType: '', body: '', failure: text ? `not HTTP: ${JSON.stringify(text.slice(0, 60))}` : 'no answer' }
  const split = text.indexOf('\r\n\r\n')
  const head = split < 0 ? text : text.slice(0, split)
  // Bytes after the request's head are parsed as a next request: keep the first answer's body only.
  const length = /\r\ncontent-length: (\d+)/i.exec(head)
  const rest = split < 0 ? '' : text.slice(split + 4)
  return { status: Number(status[1]), contentType: /\r\ncontent-type: ([^\r]*)/i.exec(head)?.[1] ?? '', body: length ? rest.slice(0, Number(length[1])) : rest }
}

// The first answer is complete once its Content-Length bytes (or a chunked body's last chunk) arrived.
function answerComplete(whole: string, toHead: boolean): boolean {
  const text = skipInterim(whole)
  const split = text.indexOf('\r\n\r\n')
  if (split < 0 || !/^HTTP\//.test(text)) return false
  const head = text.slice(0, split)
  if (toHead || /^HTTP\/1\.[01] (204|304)/.test(head)) return true
  const length = /\r\ncontent-length: (\d+)/i.exec(head)
  if (length) return text.length - split - 4 >= Number(length[1])
  return /\r\ntransfer-encoding: chunked/i.test(head) ? text.includes('\r\n0\r\n\r\n', split) : false
}

/** What is wrong with an answer to a raw request, or null: no answer, a 5xx, or a refusal that is not JSON `{error, code}`. */
export function rawViolation(raw: RawText, answer: RawAnswer): string | null {
  if (answer.failure) return answer.failure
  // A request the client cut short (`isWhole`): nobody is left to answer.
  if (answer.status === 0) return null
  if (answer.status >= 500) return `answered ${answer.status}`
  if (answer.status < 400 || raw.text.startsWith('HEAD ')) return null
  // The consent page and the OAuth endpoints answer in their documented framings.
  if (/^\S+ \/(connect|register|token|authorize|oauth)\b/.test(raw.text) && /html|json/.test(answer.contentType)) return null
  if (!/^application\/json/.test(answer.contentType)) return `refusal ${answer.status} with content type ${JSON.stringify(answer.contentType)}`
  // A chunked answer's body starts with its chunk size line.
  const body = /^[0-9a-f]+\r\n/i.test(answer.body) ? answer.body.replace(/^[0-9a-f]+\r\n/i, '').replace(/\r\n0\r\n\r\n$/, '') : answer.body
  if (body === '' && answer.status === 401 && /^\S+ \/mcp\b/.test(raw.text)) return null
  try {
    const parsed = JSON.parse(Buffer.from(body, 'latin1').toString('utf8')) as { error?: unknown; code?: unknown; error_description?: unknown }
    if (typeof parsed.error === 'string' && (typeof parsed.code === 'string' || typeof parsed.error_description === 'string')) return null
    if (typeof parsed.error === 'object' && parsed.error !== null) return null
    return `refusal ${answer.status} without {error, code}: ${body.slice(0, 80)}`
  } catch {
    return `refusal ${answer.status} whose body is not JSON: ${JSON.stringify(body.slice(0, 80))}`
  }
}

/** Sends one raw request and says what went wrong, or null (`rawViolation`, and a refusal changes no table). */
export async function checkRaw(target: FuzzTarget, raw: RawText): Promise<string | null> {
  const before = target.digest()
  const answer = await sendRawText(target.urls[raw.host], raw)
  const violation = rawViolation(raw, answer)
  if (violation) return `${violation}\n  sent: ${JSON.stringify(raw.text.slice(0, 300))}`
  // Pipelined requests excepted (`isSingle`): the first may succeed, the second be refused.
  if (answer.status >= 400 && isSingle(raw.text) && JSON.stringify(target.digest()) !== JSON.stringify(before)) return `refused ${answer.status} but changed state\n  sent: ${JSON.stringify(raw.text.slice(0, 300))}`
  return null
}

/** The raw part of `npm run fuzz`: `runs` raw requests from `seed`; rejects on the first violation. */
export async function runRawFuzz(runs: number, seed: number): Promise<number> {
  const target = await startFuzzTarget()
  try {
    await fc.assert(fc.asyncProperty(rawRequest(), async (raw) => {
      const problem = await checkRaw(target, raw)
      if (problem) throw new Error(problem)
    }), { seed, numRuns: runs, endOnFailure: true })
    return runs
  } finally {
    await target.close()
  }
}
