import { z } from 'zod'
import type { StepContext, StepSubject } from '../types.js'
import { loadFragment } from '../loader.js'

/** `include`: a shared fragment (`scenarios/_shared/*.yaml`) with parameters (`with`). */
export const includeSchema = z.union([
  z.string(),
  z.strictObject({ file: z.string(), with: z.record(z.string(), z.unknown()).default({}) }),
])

export type IncludeSpec = z.output<typeof includeSchema>

/** Runs the fragment's steps in the scenario's scope, with `params` = defaults + `with`. */
export async function runInclude(spec: IncludeSpec, ctx: StepContext): Promise<StepSubject> {
  const { file, with: given } = typeof spec === 'string' ? { file: spec, with: {} } : spec
  const fragment = await loadFragment(file, ctx.scenario.file)
  const missing = fragment.requires.filter((c) => !ctx.target.capabilities.has(c))
  if (missing.length > 0) return { skipped: `${file} needs capability ${missing.join(', ')}` }
  const unknown = Object.keys(given).filter((k) => !(k in fragment.params))
  if (unknown.length > 0) return { status: 400, body: { error: `${file} takes no parameter ${unknown.join(', ')}; it takes ${Object.keys(fragment.params).join(', ')}` } }
  const params = { ...fragment.params, ...ctx.render(given) }
  const results = await ctx.runSteps(fragment.steps, params)
  const failed = results.filter((r) => r.outcome === 'failed')
  return {
    status: failed.length ? 417 : 200,
    body: { file, steps: results.length, failed: failed.map((r) => r.label) },
    notes: [`included ${file}`],
    children: results,
  }
}
