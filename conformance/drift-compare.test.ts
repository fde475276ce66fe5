import { describe, expect, it } from 'vitest'
import { compareExchanges, contentClass, shapeOf } from './drift-compare.js'
import type { Exchange } from './types.js'

function exchange(status: number, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }): Exchange {
  return { host: 'api', method: 'GET', url: 'http://x/v1/campaigns', path: '/v1/campaigns', request: { headers: {}, query: {}, body: null }, response: { status, headers, body, text: JSON.stringify(body) }, duration_ms: 1 }
}

describe('drift comparison of two answers', () => {
  it.each([
    ['application/json; charset=utf-8', 'json'],
    ['application/problem+json', 'json'],
    ['application/x-ndjson', 'ndjson'],
    ['text/html; charset=utf-8', 'html'],
    ['text/plain', 'text'],
    ['image/png', 'other'],
  ])('classes the content type %s as %s', (type, expected) => {
    expect(contentClass({ 'Content-Type': type })).toBe(expected)
  })

  it('folds data keys (ids, dates) into * so two worlds with other ids have one shape', () => {
    const a = shapeOf({ by_day: { '2026-01-01': 3 }, keys: { key_abc123def: true } })
    const b = shapeOf({ by_day: { '2026-02-02': 5 }, keys: { key_zzz999yyy: false } })
    expect([...a]).toEqual([...b])
    expect(a.get('$.by_day.*')).toBe('number')
  })

  it('reports a missing parent once, not each of its fields', () => {
    const diffs = compareExchanges(exchange(200, { page: { next: 'x', size: 2 }, items: [] }), exchange(200, { items: [] }))
    expect(diffs).toEqual([{ aspect: 'field-missing', where: '$.page', sandbox: 'object', target: 'absent' }])
  })

  it('says nothing about element fields when one side has an empty array', () => {
    expect(compareExchanges(exchange(200, { ledger: [] }), exchange(200, { ledger: [{ id: 'x', amount: 2 }] }))).toEqual([])
  })

  it('reports a type change but not null against a value', () => {
    const diffs = compareExchanges(exchange(200, { budget: 10, ends: null }), exchange(200, { budget: '10', ends: '2026-01-01' }))
    expect(diffs).toEqual([{ aspect: 'field-type', where: '$.budget', sandbox: 'number', target: 'string' }])
  })

  it('does not count the sandbox\'s request_id as drift against a target without it, but compares its type', () => {
    const mine = { error: 'no', code: 'NOT_FOUND', request_id: 'req_abcdefghijkl' }
    expect(compareExchanges(exchange(404, mine), exchange(404, { error: 'no', code: 'NOT_FOUND' }))).toEqual([])
    expect(compareExchanges(exchange(404, { error: 'no', code: 'NOT_FOUND' }), exchange(404, mine))).toEqual([])
    expect(compareExchanges(exchange(404, mine), exchange(404, { ...mine, request_id: 7 }))).toEqual([{ aspect: 'field-type', where: '$.request_id', sandbox: 'string', target: 'number' }])
    const rpc = (data?: object) => ({ jsonrpc: '2.0', id: null, error: { code: -32001, message: 'Session not found', ...(data ? { data } : {}) } })
    expect(compareExchanges(exchange(404, rpc({ request_id: 'req_abcdefghijkl' })), exchange(404, rpc()))).toEqual([])
    expect(compareExchanges(exchange(404, rpc({ request_id: 'req_x', detail: 'y' })), exchange(404, rpc()))).toEqual([{ aspect: 'field-missing', where: '$.error.data', sandbox: 'object', target: 'absent' }])
    expect(compareExchanges(exchange(404, { error: 'no', code: 'NOT_FOUND', trace: 'x' }), exchange(404, { error: 'no', code: 'NOT_FOUND' }))).toHaveLength(1)
  })

  it('compares a differing status and code, not the bodies behind them', () => {
    const diffs = compareExchanges(exchange(403, { error: 'no', code: 'SCOPE_MISSING' }), exchange(401, { message: 'no', code: 'UNAUTHORIZED' }))
    expect(diffs.map((d) => d.aspect)).toEqual(['status', 'code'])
  })

  it('reports a watched header present on one side only, and the content type class', () => {
    const diffs = compareExchanges(exchange(429, {}, { 'content-type': 'application/json', 'retry-after': '2' }), exchange(429, {}, { 'content-type': 'text/html' }))
    expect(diffs).toEqual([
      { aspect: 'content-type', where: 'content-type', sandbox: 'json', target: 'html' },
      { aspect: 'header', where: 'retry-after', sandbox: 'present', target: 'absent' },
    ])
  })
})
