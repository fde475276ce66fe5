import { describe, expect, it } from 'vitest'
import { checkValue, matchSubset, queryPath } from './matchers.js'
import { render } from './templating.js'

describe('matchers', () => {
  it.each([
    [5, { gt: 4 }, true], [5, { gt: 5 }, false], [5, { gte: 5 }, true], [5, { lt: 5 }, false], [5, { lte: 5 }, true],
    ['a', { eq: 'a' }, true], ['a', { ne: 'a' }, false], ['b', { in: ['a', 'b'] }, true], ['c', { in: ['a', 'b'] }, false],
    ['svc_test_x', { matches: '^svc_test_' }, true], [7, { matches: '7' }, false],
    [3, { type: 'integer' }, true], [3.5, { type: 'integer' }, false], [3, { type: 'number' }, true], [null, { type: 'null' }, true],
    [[1, 2], { type: 'array' }, true], [{}, { type: 'object' }, true],
    [undefined, { exists: false }, true], [0, { exists: true }, true], [undefined, { exists: true }, false],
    ['abc', { len: 3 }, true], [[1], { len: { gte: 2 } }, false], [{ a: 1 }, { len: 1 }, true],
    [{ a: 1 }, { a: 1 }, true], [4, 4, true], [4, '4', false],
  ])('%j against %j is %s', (value, spec, ok) => {
    expect(checkValue(value, spec) === null).toBe(ok)
  })

  it('subset-matches objects and names the path of each mismatch', () => {
    const given = { a: 1, b: { c: 'x', d: [1, 2] }, e: true }
    expect(matchSubset({ a: 1, b: { c: 'x' } }, given)).toEqual([])
    expect(matchSubset({ b: { c: 'y', d: [1, { gt: 5 }] } }, given)).toEqual([
      { path: '$.b.c', expected: 'y', given: 'x' },
      { path: '$.b.d[1]', expected: { gt: 5 }, given: 2 },
    ])
    expect(matchSubset({ a: 1 }, given, { strict: true }).map((m) => m.path)).toEqual(['$.b', '$.e'])
  })

  // Issue 36: a matcher treating a missing field as equal was caught only by the slow suites.
  it.each([
    ['a literal', { a: 1, gone: 'x' }], ['null', { gone: null }], ['false', { gone: false }], ['an object', { gone: { b: 1 } }],
    ['an empty object', { gone: {} }], ['an array', { gone: [] }], ['a nested field', { nest: { gone: 1 } }],
    ['an eq matcher', { gone: { eq: 'x' } }], ['a type matcher', { gone: { type: 'string' } }], ['an exists: true matcher', { gone: { exists: true } }],
    ['a len matcher', { gone: { len: 0 } }], ['an in matcher', { gone: { in: ['x'] } }], ['a matches matcher', { gone: { matches: '.*' } }],
  ])('a missing field never matches %s', (_name, expected) => {
    const given = { a: 1, nest: {} }
    expect(matchSubset(expected, given).map((m) => m.path)).toEqual(['nest' in expected ? '$.nest.gone' : '$.gone'])
  })

  it('a missing field matches only exists: false, and deepEqual tells a missing key from an undefined one', () => {
    expect(matchSubset({ gone: { exists: false } }, { a: 1 })).toEqual([])
    expect(matchSubset([1, 2], [1])).toHaveLength(1)
    expect(checkValue(undefined, { ne: 'x' })).toBeNull()
    expect(checkValue({ a: 1 }, { a: 1, b: 2 })).toBe('eq')
    expect(checkValue({ a: 1, b: 2 }, { a: 1 })).toBe('eq')
    expect(checkValue({ a: undefined }, { b: undefined })).toBe('eq')
  })

  it('queries a definite JSONPath as one value and an indefinite one as a list', () => {
    const body = { items: [{ id: 'a', n: 1 }, { id: 'b', n: 2 }] }
    expect(queryPath(body, '$.items[0].id')).toBe('a')
    expect(queryPath(body, '$.items[*].id')).toEqual(['a', 'b'])
    expect(queryPath(body, "$.items[?(@.n > 1)].id")).toEqual(['b'])
    expect(queryPath(body, '$.missing')).toBeUndefined()
  })
})

describe('templating', () => {
  const scope = { vars: { days: 7, name: 'x' }, child: { key: 'svc_test_abc' }, env: {} }
  it('keeps the type of a whole-value template and interpolates inside text', () => {
    expect(render({ a: '${{ vars.days }}', b: 'n=${{ vars.name }}-${{ vars.days }}', c: ['${{ child.key }}'] }, scope))
      .toEqual({ a: 7, b: 'n=x-7', c: ['svc_test_abc'] })
  })
  it('uses a default for a missing value and fails clearly without one', () => {
    expect(render("${{ env.NOPE || 'dflt' }}", scope)).toBe('dflt')
    expect(() => render('${{ vars.nope }}', scope)).toThrow(/`vars.nope` is not defined/)
  })
})
