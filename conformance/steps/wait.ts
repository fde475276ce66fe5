import { z } from 'zod'
import { duration } from '../schema.js'
import type { StepContext, StepSubject } from '../types.js'
import { parseMs, sleep } from '../time.js'
import { changeScenarioClock } from '../world-copies.js'

/** `wait`: a duration, or the `Retry-After` of an earlier step (ERR-03). */
export const waitSchema = z.strictObject({
  duration: duration.optional(),
  retry_after_from: z.string().optional(),
  /** Upper bound for a real sleep. */
  max: duration.default('60s'),
}).refine((w) => (w.duration === undefined) !== (w.retry_after_from === undefined), 'give exactly one of `duration` or `retry_after_from`')

export type WaitSpec = z.output<typeof waitSchema>

/** On a target with a clock the sandbox time advances (no real waiting); elsewhere it sleeps. */
export async function runWait(spec: WaitSpec, ctx: StepContext): Promise<StepSubject> {
  const w = ctx.render(spec)
  let ms: number
  if (w.retry_after_from !== undefined) {
    const from = ctx.subjects.get(w.retry_after_from)
    const header = from?.headers?.['retry-after']
    if (!from) return { status: 400, body: { error: `no earlier step \`${w.retry_after_from}\`` } }
    if (header === undefined || !/^\d+$/.test(header)) {
      return { status: 400, body: { error: `step \`${w.retry_after_from}\` has no Retry-After in whole seconds (got ${JSON.stringify(header)})` } }
    }
    ms = Number(header) * 1000
  } else {
    ms = parseMs(w.duration!)
  }
  const { target } = ctx
  if (target.capabilities.has('clock') && target.control) {
    const moved = await changeScenarioClock(target, { advance: `${ms}ms` })
    const which = target.workspaceClocks?.length ? 'the world copy\'s workspace clocks' : 'the sandbox clock'
    return { status: 200, body: { waited_ms: ms, mode: 'sandbox-clock', now: moved.body.now }, notes: [`advanced ${which} by ${ms} ms`] }
  }
  const real = Math.min(ms, parseMs(w.max))
  await sleep(real)
  return { status: 200, body: { waited_ms: real, mode: 'sleep' }, notes: [`slept ${real} ms`] }
}
