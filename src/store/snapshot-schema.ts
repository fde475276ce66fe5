import { z } from 'zod'
import { TABLE_NAMES } from './layout.js'
import { defaultPolicy } from '../domain/policy.js'
import { policySchema } from '../domain/world-schema.js'

const text = z.string()
const when = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO-8601 time')
const bucket = z.object({ capacity: z.number(), refill_per_second: z.number() }).nullable()

/**
 * Rows of the core tables are checked field by field on import (`PUT /_sandbox/state`), so a bad
 * snapshot is a 400 instead of a crash on the next request. Other tables only need an `id`; their
 * modules own their shapes. Extra fields are kept so newer exports still import.
 */
const CORE_ROWS = {
  users: z.looseObject({ id: text, email: text, name: text, created_at: when }),
  workspaces: z.looseObject({
    id: text,
    name: text,
    owner_user_id: text,
    parent_id: text.nullable(),
    created_at: when,
    credits: z.looseObject({ balance: z.number(), payment_method: z.boolean() }),
    // Known policy fields are type-checked; fields a newer gate adds pass through.
    policy: z.looseObject(policySchema.shape).transform((p) => ({ ...defaultPolicy(), ...p })),
    rate_limits: z.looseObject({ per_key: bucket, per_workspace: bucket }),
    // A workspace's own test clock (issue 19), within the sandbox clock's range.
    clock: z.strictObject({ offset_ms: z.number().min(-1e14).max(1e14), frozen_at: z.number().min(0).max(Date.parse('9999-12-31T23:59:59.999Z')).nullable() }).nullable().optional(),
    // Landing-page titles set through the control plane (issue 20), as the route bounds them.
    landing_pages: z.record(z.string().max(200), z.strictObject({ title: z.string().min(1).max(2000) })).optional(),
    // The world copy a workspace belongs to (issue 19).
    copy: text.optional(),
  }),
  memberships: z.looseObject({
    id: text,
    user_id: text,
    workspace_id: text,
    role: z.enum(['owner', 'admin', 'member']),
    status: z.enum(['active', 'removed']),
    created_at: when,
    removed_at: when.nullable(),
  }),
  keys: z.looseObject({
    id: text,
    name: text,
    hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha256 hex digest'),
    prefix: text,
    scopes: z.array(text),
    user_id: text,
    workspace_id: text.nullable(),
    parent_key_id: text.nullable(),
    created_at: when,
    expires_at: when.nullable(),
    last_used_at: when.nullable(),
    revoked_at: when.nullable(),
  }),
} as const

const anyRow = z.looseObject({ id: text })

/** A state snapshot as exported by `GET /_sandbox/state`. */
export const snapshotSchema = z.strictObject({
  version: z.literal(1, 'must be 1'),
  meta: z.object({
    world: z.string(),
    seed: z.number().int(),
    clock: z.object({
      offset_ms: z.number().min(-1e14).max(1e14),
      frozen_at: z.number().min(0).max(Date.parse('9999-12-31T23:59:59.999Z')).nullable(),
    }),
  }),
  ...Object.fromEntries(TABLE_NAMES.map((name) => [name, z.array(rowSchema(name)).default([])])),
})

function rowSchema(name: string): z.ZodType {
  return name in CORE_ROWS ? CORE_ROWS[name as keyof typeof CORE_ROWS] : anyRow
}
