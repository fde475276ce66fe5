import type { z } from 'zod'
import { scenarioSchema } from './schema.js'

/** Every object key the scenario schema knows (for "did you mean" hints). */
export function vocabulary(): string[] {
  const keys = new Set<string>()
  const seen = new Set<unknown>()
  function walk(schema: z.ZodType | undefined): void {
    if (!schema || seen.has(schema)) return
    seen.add(schema)
    const def = (schema as unknown as { _zod: { def: Record<string, any> } })._zod.def
    if (def.type === 'object') {
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        keys.add(k)
        walk(v)
      }
    }
    for (const key of ['innerType', 'element', 'valueType', 'in', 'out', 'schema']) walk(def[key])
    for (const option of (def.options as z.ZodType[] | undefined) ?? []) walk(option)
  }
  walk(scenarioSchema())
  return [...keys]
}
