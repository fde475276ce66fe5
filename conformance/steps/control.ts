import { z } from 'zod'
import { ControlError } from '../../src/client/control-client.js'
import type { StepContext, StepSubject } from '../types.js'
import { changeScenarioClock } from '../world-copies.js'

const workspaceBody = z.object({ workspace: z.string() }).catchall(z.unknown())

/** `control`: one sandbox control-plane operation (DESIGN "Control plane"). */
export const controlSchema = z.strictObject({
  reset: z.union([z.literal(true), z.strictObject({ world: z.string().optional(), seed: z.number().int().optional() })]).optional(),
  /** Shorthand for `reset: {world}`. */
  world: z.string().optional(),
  clock: z.strictObject({ advance: z.union([z.string(), z.number()]).optional(), set: z.string().optional(), freeze: z.boolean().optional() }).optional(),
  policy: workspaceBody.optional(),
  credits: workspaceBody.optional(),
  rate_limits: workspaceBody.optional(),
  fault: z.record(z.string(), z.unknown()).optional(),
  review: z.strictObject({ audit_id: z.string(), decision: z.enum(['approve', 'reject']), reviewer: z.string().optional() }).optional(),
  mint_key: z.record(z.string(), z.unknown()).optional(),
  end_membership: z.strictObject({ id: z.string() }).optional(),
  /** Any other control route: `{method, path, json}` relative to `/_sandbox`. */
  call: z.strictObject({ method: z.string().default('GET'), path: z.string().startsWith('/'), json: z.unknown().optional() }).optional(),
}).refine((c) => Object.values(c).filter((v) => v !== undefined).length === 1, 'a control step holds exactly one operation')

export type ControlSpec = z.output<typeof controlSchema>

/** The capability each operation needs: time travel needs `clock`, scripted faults `faults`. */
export function controlRequires(spec: ControlSpec): string[] {
  if (spec.clock) return ['control', 'clock']
  if (spec.fault) return ['control', 'faults']
  return ['control']
}

/** Maps the operation to its control-plane call; a refusal becomes the step's status and body. */
export async function runControl(spec: ControlSpec, ctx: StepContext): Promise<StepSubject> {
  const c = ctx.render(spec)
  const control = ctx.target.control
  if (!control) return { skipped: 'the target has no control plane' }
  const [method, path, body] = route(c)
  try {
    // In a world copy a clock step moves the copy's workspace clocks, not the shared sandbox clock (issue 19).
    if (c.clock && ctx.target.workspaceClocks?.length) {
      const moved = await changeScenarioClock(ctx.target, c.clock)
      return { status: 200, body: moved.body, notes: [`POST /_sandbox${moved.path}`] }
    }
    const result = await control.request(method, path, body)
    // A reset loads a world: its keys become the named credentials of the following steps.
    if (path === '/reset') refreshCredentials(ctx, result as { keys?: Array<{ name: string; value: string }> })
    return { status: 200, body: result, notes: [`${method} /_sandbox${path}`] }
  } catch (error) {
    if (!(error instanceof ControlError)) throw error
    return { status: error.status, body: error.body, notes: [`${method} /_sandbox${path} → ${error.status}`] }
  }
}

function refreshCredentials(ctx: StepContext, result: { keys?: Array<{ name: string; value: string }> }): void {
  if (!result.keys) return
  const credentials = ctx.target.credentials
  for (const name of Object.keys(credentials)) delete credentials[name]
  for (const key of result.keys) credentials[key.name] = key.value
}

function route(c: ControlSpec): [string, string, unknown] {
  const ws = (b: { workspace: string }) => encodeURIComponent(b.workspace)
  const rest = <T extends { workspace: string }>({ workspace: _w, ...body }: T) => body
  if (c.reset) return ['POST', '/reset', c.reset === true ? {} : c.reset]
  if (c.world) return ['POST', '/reset', { world: c.world }]
  if (c.clock) return ['POST', '/clock', c.clock]
  if (c.policy) return ['PUT', `/workspaces/${ws(c.policy)}/policy`, rest(c.policy)]
  if (c.credits) return ['PUT', `/workspaces/${ws(c.credits)}/credits`, rest(c.credits)]
  if (c.rate_limits) return ['PUT', `/workspaces/${ws(c.rate_limits)}/rate-limits`, rest(c.rate_limits)]
  if (c.fault) return ['POST', '/faults', c.fault]
  if (c.review) {
    const { audit_id, decision, ...body } = c.review
    return ['POST', `/reviews/${encodeURIComponent(audit_id)}/${decision}`, body]
  }
  if (c.mint_key) return ['POST', '/keys', c.mint_key]
  if (c.end_membership) return ['DELETE', `/memberships/${encodeURIComponent(c.end_membership.id)}`, undefined]
  const call = c.call!
  return [call.method.toUpperCase(), call.path, call.json]
}
