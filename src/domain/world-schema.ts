import { z } from 'zod'
import { KEY_PATTERN } from './access.js'
import { ALL_SCOPES } from './scopes.js'
import { OPERATIONS } from './model.js'

// The shape of a world (users, workspaces, keys, policy, credits, limits): the domain's to own, so
// the control plane validates a policy or credits change against it without reaching into the store.

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'ids are 1-64 letters, digits, `_` or `-`')
const bucket = z.strictObject({ capacity: z.number().int().positive(), refill_per_second: z.number().positive() }).nullable()
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'times are HH:MM')

/** Policy fields a world may set; anything left out takes the default (GATE-03). */
export const policySchema = z.strictObject({
  hold: z.array(z.enum(OPERATIONS)).optional(),
  block_tools: z.array(z.string()).optional(),
  operating_hours: z.strictObject({
    timezone: z.string().refine(isTimeZone, 'not an IANA time zone'),
    days: z.array(z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'])).min(1),
    start: hhmm,
    end: hhmm,
  }).nullable().optional(),
  // Either limit may be left out (no limit), so one can be set without naming the other.
  limits: z.strictObject({
    max_daily_budget: z.number().positive().nullable().default(null),
    max_budget_increase_pct: z.number().positive().nullable().default(null),
  }).optional(),
  hold_budget_increase_pct: z.number().positive().nullable().optional(),
  review_ttl_hours: z.number().positive().optional(),
})

export const creditsSchema = z.strictObject({ balance: z.number().min(0).optional(), payment_method: z.boolean().optional() })
export const rateLimitsSchema = z.strictObject({ per_key: bucket.optional(), per_workspace: bucket.optional() })

/** A whole world file, references checked (ids unique, parents before children). */
export const worldSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string().default(''),
  seed: z.number().int().default(42),
  users: z.array(z.strictObject({ id, email: z.email(), name: z.string().min(1) })),
  workspaces: z.array(z.strictObject({
    id, name: z.string().min(1), owner: id, parent: id.nullable().optional(),
    credits: creditsSchema.optional(), policy: policySchema.optional(), rate_limits: rateLimitsSchema.optional(),
  })),
  memberships: z.array(z.strictObject({ user: id, workspace: id, role: z.enum(['owner', 'admin', 'member']).default('member') })).default([]),
  keys: z.array(z.strictObject({
    name: z.string().min(1),
    user: id,
    workspace: id.nullable().default(null),
    scopes: z.array(z.string().refine((s) => s === '*' || ALL_SCOPES.includes(s), 'unknown scope')),
    value: z.string().regex(KEY_PATTERN, 'a key value is svc_test_ followed by 32 letters or digits'),
    expires_in_days: z.number().int().min(1).max(365).optional(),
    description: z.string().optional(),
  })).default([]),
  /** Header names read like X-Service-Key, as `serve --key-header` (issue 35; checked by `keyHeadersOf`). */
  key_headers: z.array(z.string().min(1).max(63)).max(16).optional(),
  connections: z.array(z.strictObject({
    id, workspace: id, platform: z.literal('google'), account_id: z.string().min(1), account_name: z.string().min(1),
    currency: z.string().length(3).default('USD'), campaigns: z.strictObject({ count: z.number().int().min(0).max(500) }).optional(),
  })).default([]),
}).superRefine(checkReferences)

function checkReferences(world: z.infer<typeof worldSchema>, ctx: z.RefinementCtx): void {
  const check = (ok: boolean, path: Array<string | number>, message: string) => {
    if (!ok) ctx.addIssue({ code: 'custom', path, message })
  }
  // Seeding inserts rows in file order, so ids must be unique and a parent must come before its children.
  const unique = (section: string, ids: string[]) => {
    const seen = new Set<string>()
    ids.forEach((value, i) => {
      check(!seen.has(value), [section, i, section === 'memberships' ? 'user' : 'id'], `duplicate ${section === 'memberships' ? 'membership' : 'id'} \`${value}\``)
      seen.add(value)
    })
    return seen
  }
  const users = unique('users', world.users.map((u) => u.id))
  const workspaces = unique('workspaces', world.workspaces.map((w) => w.id))
  unique('connections', world.connections.map((c) => c.id))
  unique('memberships', world.memberships.map((m) => `${m.user}@${m.workspace}`))
  const declared = new Set<string>()
  world.workspaces.forEach((w, i) => {
    check(users.has(w.owner), ['workspaces', i, 'owner'], `unknown user \`${w.owner}\``)
    check(!w.parent || workspaces.has(w.parent), ['workspaces', i, 'parent'], `unknown workspace \`${w.parent}\``)
    check(!w.parent || !workspaces.has(w.parent) || declared.has(w.parent), ['workspaces', i, 'parent'], `parent \`${w.parent}\` must be listed before its children`)
    declared.add(w.id)
  })
  world.memberships.forEach((m, i) => {
    check(users.has(m.user), ['memberships', i, 'user'], `unknown user \`${m.user}\``)
    check(workspaces.has(m.workspace), ['memberships', i, 'workspace'], `unknown workspace \`${m.workspace}\``)
  })
  const values = new Set<string>()
  world.keys.forEach((k, i) => {
    check(users.has(k.user), ['keys', i, 'user'], `unknown user \`${k.user}\``)
    check(!k.workspace || workspaces.has(k.workspace), ['keys', i, 'workspace'], `unknown workspace \`${k.workspace}\``)
    check(!values.has(k.value), ['keys', i, 'value'], 'duplicate key value')
    values.add(k.value)
  })
  world.connections.forEach((c, i) => check(workspaces.has(c.workspace), ['connections', i, 'workspace'], `unknown workspace \`${c.workspace}\``))
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone })
    return true
  } catch {
    return false
  }
}
