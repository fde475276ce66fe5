import { z } from 'zod'
import { stepKindNames, stepKindShape } from './steps/registry.js'

/** Matcher names usable in `expect.match`, `expect.headers`, `expect.json` and `poll.until`. */
export const MATCHERS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'matches', 'type', 'exists', 'len'] as const
export const TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'] as const

export const duration = z.union([z.string().regex(/^(\d+(\.\d+)?(ms|s|m|h|d))+$/, 'must be a duration such as 500ms, 2s, 31m'), z.number().nonnegative()])

/** A literal (meaning `eq`) or an object of matchers; an unknown matcher name is a load error. */
const matcherValue = z.unknown().superRefine((value, ctx) => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return
  const bad = Object.keys(value).filter((k) => !(MATCHERS as readonly string[]).includes(k))
  if (bad.length > 0) ctx.addIssue({ code: 'custom', message: `unknown matcher \`${bad[0]}\`; matchers are ${MATCHERS.join(', ')} (hint: wrap a literal object in {eq: …})` })
  const type = (value as { type?: unknown }).type
  if (type !== undefined && !(TYPES as readonly unknown[]).includes(type)) ctx.addIssue({ code: 'custom', message: `\`type\` must be one of ${TYPES.join(', ')}` })
})

export const expectSchema = z.strictObject({
  status: z.union([z.number().int(), z.array(z.number().int()).min(1)]).optional(),
  headers: z.record(z.string(), matcherValue).optional(),
  /** Subset match of the JSON body (exact with `strict: true`). */
  json: z.unknown().optional(),
  strict: z.boolean().optional(),
  /** JSONPath → matcher. */
  match: z.record(z.string(), matcherValue).optional(),
  /** Strings that must not occur anywhere in the response text. */
  absent: z.array(z.string()).optional(),
  contract: z.enum(['error', 'warn', 'off']).optional(),
})
export type Expect = z.infer<typeof expectSchema>

/** Template namespaces a step id would shadow. */
const RESERVED = ['env', 'run', 'world', 'target', 'captures', 'steps', 'params', 'vars']

const capture = z.union([
  z.string().startsWith('$', 'must be a JSONPath starting with `$`'),
  z.strictObject({ header: z.string() }),
  z.strictObject({ jsonpath: z.string() }),
])

const common = {
  id: z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, 'must be letters, digits, `_` or `-`')
    .refine((id) => !RESERVED.includes(id), `must not be one of ${RESERVED.join(', ')} (template namespaces)`).optional(),
  name: z.string().optional(),
  requires: z.array(z.string()).optional(),
  expect: expectSchema.optional(),
  capture: z.record(z.string(), capture).optional(),
  /** Capture names whose values are secrets: redacted in reports, and a failure if seen again (KEY-02). */
  secret: z.array(z.string()).optional(),
  poll: z.strictObject({ every: duration.default('200ms'), max: z.number().int().min(1).default(20), until: expectSchema }).optional(),
  retry: z.strictObject({ count: z.number().int().min(1).max(20), every: duration.default('200ms') }).optional(),
}

/** A step: the common fields plus exactly one registered kind (`request`, `control`, …). */
export function stepSchema(): z.ZodType<Step> {
  return z.strictObject({ ...common, ...stepKindShape() }).superRefine((step, ctx) => {
    const kinds = stepKindNames().filter((k) => (step as Record<string, unknown>)[k] !== undefined)
    if (kinds.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        message: `a step holds exactly one of ${stepKindNames().join(', ')}; got ${kinds.length ? kinds.join(' and ') : 'none'}`,
      })
    }
  }) as unknown as z.ZodType<Step>
}

export interface Step {
  id?: string
  name?: string
  requires?: string[]
  expect?: Expect
  capture?: Record<string, string | { header: string } | { jsonpath: string }>
  secret?: string[]
  poll?: { every: string | number; max: number; until: Expect }
  retry?: { count: number; every: string | number }
  [kind: string]: unknown
}

const ruleId = z.string().regex(/^[A-Z]+-\d{2}$/, 'must be a rule id such as KEY-02')

/** The top level of a scenario file. */
export function scenarioSchema() {
  const steps = z.array(stepSchema())
  return z.strictObject({
    id: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'must be letters, digits, `.`, `_` or `-`'),
    title: z.string().min(1),
    covers: z.array(ruleId).default([]),
    tags: z.array(z.string()).default([]),
    world: z.string().default('default'),
    requires: z.array(z.string()).default([]),
    serial: z.boolean().default(false),
    /** `serial`: runs alone, after the parallel ones (it reads counts or state other scenarios change on a shared target). */
    isolation: z.enum(['parallel', 'serial']).default('parallel'),
    vars: z.record(z.string(), z.unknown()).default({}),
    setup: steps.default([]),
    steps: steps.min(1),
    teardown: steps.default([]),
  })
}

export type Scenario = z.output<ReturnType<typeof scenarioSchema>> & { file: string }

/** A fragment used by `include`: parameters with defaults, and steps. */
export function fragmentSchema() {
  return z.strictObject({
    title: z.string().optional(),
    params: z.record(z.string(), z.unknown()).default({}),
    requires: z.array(z.string()).default([]),
    steps: z.array(stepSchema()).min(1),
  })
}
