import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { param, parseInput } from '../reply.js'
import type { FaultRule, FaultStep } from '../../domain/model.js'
import { iso } from '../../domain/durations.js'
import { invalidRequest, notFound } from '../../domain/errors.js'
import { currentStep } from '../faults.js'
import { NEAR_MISS_LIMIT, nearMissesOf } from '../near-misses.js'
import { JSONPath } from 'jsonpath-plus'

const response = {
  status: z.number().int().min(100).max(599).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.unknown().optional(),
  delay_ms: z.number().int().min(0).max(120_000, 'must be at most 120000').optional(),
  drop: z.boolean().optional(),
}
const step = z.strictObject({ ...response, pass: z.boolean().optional(), times: z.number().int().min(1).nullable().optional() })
const FLAG_NAME = /^(--)?[a-z][a-z0-9-]*$/

const bodyCondition = z.strictObject({
  path: z.string().min(2).max(500).refine(validJsonPath, 'not a JSONPath expression (e.g. $.args[0] or $.params.arguments.campaign_id)'),
  equals: z.unknown().optional(),
  contains: z.string().optional(),
  matches: z.string().max(500).refine(validRegex, 'not a valid regular expression').optional(),
  exists: z.boolean().optional(),
}).refine((c) => [c.equals, c.contains, c.matches].filter((v) => v !== undefined).length <= 1, 'give at most one of equals, contains, matches')

const faultBody = z.strictObject({
  match: z.strictObject({
    method: z.string().min(1).optional(),
    host: z.enum(['base', 'api']).optional(),
    path: z.string().min(1).optional(),
    script_name: z.string().min(1).optional(),
    key_prefix: z.string().min(1).optional(),
    workspace_id: z.string().min(1).optional(),
    flags: z.record(z.string(), z.union([z.literal(true), z.string(), z.number()]).transform((v) => (v === true ? v : String(v))))
      .refine((flags) => Object.keys(flags).every((name) => FLAG_NAME.test(name)), 'every key is a flag name such as --campaign-id').optional(),
    body: z.array(bodyCondition).min(1).max(20).optional(),
    mcp_tool: z.string().min(1).optional(),
    mcp_arguments: z.record(z.string(), z.unknown()).optional(),
  }).default({}),
  ...response,
  times: z.number().int().min(1).nullable().optional(),
  sequence: z.array(step).min(1).max(100).optional(),
})

/** A rule as listed: its steps, position, hits and whether it is spent. */
function view(rule: FaultRule) {
  const next = currentStep(rule)
  return { ...rule, exhausted: next === null, next_step: next ? next.index + 1 : null }
}

/** `/_sandbox/faults`: scripted responses on the public hosts (DESIGN control plane). */
export function faultRoutes(ctx: AppContext): Route[] {
  const { faults } = ctx.deps.store
  return [
    {
      method: 'get',
      path: '/faults/near-misses',
      handler: (req) => {
        const limit = req.query.limit === undefined ? undefined : Number(req.query.limit)
        if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw invalidRequest('limit must be a positive integer', 'limit')
        const rule = typeof req.query.rule === 'string' ? req.query.rule : undefined
        return { body: { near_misses: nearMissesOf(ctx).list({ rule, limit }), limit: NEAR_MISS_LIMIT } }
      },
    },
    { method: 'delete', path: '/faults/near-misses', handler: () => ({ body: { removed: nearMissesOf(ctx).clear() } }) },
    { method: 'get', path: '/faults', handler: () => ({ body: { faults: faults.all().map(view) } }) },
    {
      method: 'post',
      path: '/faults',
      handler: (req) => {
        const body = parseInput(faultBody, req.body)
        const steps = stepsOf(body)
        const rule: FaultRule = {
          id: ctx.deps.ids.next('flt'), created_at: iso(ctx.deps.clock.now()), match: body.match, steps, cursor: { step: 0, used: 0 }, hits: 0,
        }
        return { status: 201, body: view(faults.insert(rule)) }
      },
    },
    {
      method: 'delete',
      path: '/faults',
      handler: () => {
        const removed = faults.size()
        for (const rule of faults.all()) faults.remove(rule.id)
        return { body: { removed } }
      },
    },
    {
      method: 'delete',
      path: '/faults/:id',
      handler: (req) => {
        const rule = faults.get(param(req, 'id'))
        if (!rule) throw notFound(`Fault ${param(req, 'id')}`)
        faults.remove(rule.id)
        return { body: { ...view(rule), removed: true } }
      },
    },
  ]
}

// A single response is one step repeated `times` (default: until deleted); a sequence's steps default to once each.
function stepsOf(body: z.infer<typeof faultBody>): FaultStep[] {
  const { match: _match, sequence, times, ...single } = body
  const hasSingle = Object.values(single).some((v) => v !== undefined)
  if (sequence && (hasSingle || times !== undefined)) throw invalidRequest('send either `sequence` or a single response (`status`, `drop`, `delay_ms`…), not both', 'sequence')
  if (sequence) return sequence.map((s) => checked({ ...s, times: s.times === undefined ? 1 : s.times }))
  if (!hasSingle) throw invalidRequest('a fault needs `status`, `drop`, `delay_ms` or a `sequence`')
  return [checked({ ...single, times: times ?? null })]
}

function checked(s: FaultStep): FaultStep {
  if (s.status === undefined && !s.drop && !s.pass && s.delay_ms === undefined) {
    throw invalidRequest('every step needs `status`, `drop`, `pass` or `delay_ms`', 'sequence')
  }
  if (s.pass && (s.status !== undefined || s.drop)) throw invalidRequest('a `pass` step cannot also set `status` or `drop`', 'sequence')
  return s
}

function validRegex(source: string): boolean {
  try {
    new RegExp(source)
    return true
  } catch {
    return false
  }
}

function validJsonPath(path: string): boolean {
  if (!path.startsWith('$')) return false
  try {
    JSONPath({ path, json: {}, wrap: true, eval: 'safe' })
    return true
  } catch {
    return false
  }
}
