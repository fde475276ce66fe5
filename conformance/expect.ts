import type { Expect } from './schema.js'
import type { StepSubject } from './types.js'
import type { Mismatch } from './matchers.js'
import { checkValue, matchSubset, queryPath } from './matchers.js'

/** Everything an `expect` (or a `poll.until`) finds wrong with a step's result; empty = pass. */
export function checkExpect(expect: Expect | undefined, subject: StepSubject): Mismatch[] {
  if (!expect) return []
  const out: Mismatch[] = []
  if (expect.status !== undefined) {
    const allowed = Array.isArray(expect.status) ? expect.status : [expect.status]
    if (!allowed.includes(subject.status ?? -1)) out.push({ path: 'status', expected: expect.status, given: subject.status })
  }
  for (const [name, spec] of Object.entries(expect.headers ?? {})) {
    const given = subject.headers?.[name.toLowerCase()]
    if (checkValue(given, spec) !== null) out.push({ path: `headers.${name}`, expected: spec, given })
  }
  if (expect.json !== undefined) out.push(...matchSubset(expect.json, subject.body, { strict: expect.strict }))
  for (const [path, spec] of Object.entries(expect.match ?? {})) {
    let given: unknown
    try {
      given = queryPath(subject.body, path)
    } catch (error) {
      out.push({ path, expected: spec, given: `invalid JSONPath: ${(error as Error).message}` })
      continue
    }
    if (checkValue(given, spec) !== null) out.push({ path, expected: spec, given })
  }
  const text = subject.exchange?.response.text ?? JSON.stringify(subject.body ?? null)
  for (const needle of expect.absent ?? []) {
    if (needle && text.includes(needle)) out.push({ path: 'absent', expected: `no ${needle.slice(0, 12)}…`, given: 'present in the response' })
  }
  return out
}
