/** A `${{ head.next… }}` reference found in a step, at its path in the YAML. */
export interface TemplateRef {
  path: Array<string | number>
  head: string
  next?: string
}

const TEMPLATE = /\$\{\{\s*([^}]+?)\s*\}\}/g

/**
 * Every template reference in a value (keys and strings, at any depth). A reference with a
 * fallback (`x || 'default'`) may name something missing, so it is not returned.
 */
export function templateRefs(value: unknown, path: Array<string | number> = []): TemplateRef[] {
  if (typeof value === 'string') return refsIn(value, path)
  if (Array.isArray(value)) return value.flatMap((v, i) => templateRefs(v, [...path, i]))
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([k, v]) => [...refsIn(k, [...path, k]), ...templateRefs(v, [...path, k])])
  }
  return []
}

function refsIn(text: string, path: Array<string | number>): TemplateRef[] {
  if (!text.includes('${{')) return []
  const out: TemplateRef[] = []
  for (const match of text.matchAll(TEMPLATE)) {
    if (match[1].includes('||')) continue
    const [head, next] = match[1].trim().replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean)
    out.push({ path, head, ...(next === undefined ? {} : { next }) })
  }
  return out
}
