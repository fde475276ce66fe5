import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { ruleIdsIn, shippedRules } from './coverage.js'

const RULES = fileURLToPath(new URL('../../shared/spec/RULES.md', import.meta.url))
// Outside the workspace (a published package) the spec is absent and the check is skipped; under
// CI=true a missing spec fails instead, so CI never passes without comparing.
const IN_CI = /^(1|true)$/i.test(process.env.CI ?? '')

describe('conformance/rule-ids.txt', () => {
  it.skipIf(!existsSync(RULES) && !IN_CI)('lists exactly the rule ids of ../shared/spec/RULES.md, in order', () => {
    expect(existsSync(RULES), `${RULES} is missing (CI=true turns this skip into a failure)`).toBe(true)
    expect(shippedRules().map((r) => r.id)).toEqual(ruleIdsIn(readFileSync(RULES, 'utf8')))
  })

  it('has unique ids with their text', () => {
    const rules = shippedRules()
    expect(rules.length).toBeGreaterThan(50)
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length)
    for (const r of rules) expect(r.text.length, r.id).toBeGreaterThan(10)
  })
})
