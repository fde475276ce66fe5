import { afterEach, describe, expect, it } from 'vitest'
import { conformInProcess } from '../test-support/conform-in-process.js'

/**
 * `conform` sets the process exit code (docs/conformance.md "Exit codes"): the fast project's
 * check of it (issue 36: a `conform` that never set its exit code was caught only by the slow
 * suite, conformance/cli.test.ts, which also covers exits 1, 4 and 5). Each case here returns
 * before the runner loads, so it stays fast.
 */
const conform = conformInProcess

afterEach(() => {
  process.exitCode = undefined
})

describe('conform sets its exit code', () => {
  it.each([
    ['--target and --base-url together', ['--target', 'http://127.0.0.1:9', '--base-url', 'http://127.0.0.1:9'], /either --target .* or --base-url/],
    ['--base-url without --api-url', ['--base-url', 'http://127.0.0.1:9'], /--base-url needs --api-url/],
  ])('exits 2 on %s, before anything runs', async (_name, args, message) => {
    const r = await conform(['conformance/test-fixtures/pass', '--no-baseline', ...args])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(message)
  })
})
