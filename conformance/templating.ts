/** `${{ path }}` templating: the value is looked up by dotted path in the scope. */
const TEMPLATE = /\$\{\{\s*([^}]+?)\s*\}\}/g
const WHOLE = /^\$\{\{\s*([^}]+?)\s*\}\}$/

/** A reference that names nothing in scope. */
export class TemplateError extends Error {}

/**
 * Renders templates anywhere inside `value` (strings, arrays, objects). A string that is exactly
 * one template keeps the referenced value's type (`${{ vars.days }}` stays a number).
 */
export function render<T>(value: T, scope: Record<string, unknown>): T {
  if (typeof value === 'string') return renderString(value, scope) as T
  if (Array.isArray(value)) return value.map((v) => render(v, scope)) as T
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [renderString(k, scope), render(v, scope)])) as T
  }
  return value
}

function renderString(text: string, scope: Record<string, unknown>): unknown {
  if (!text.includes('${{')) return text
  const whole = WHOLE.exec(text)
  if (whole) return lookup(scope, whole[1])
  return text.replace(TEMPLATE, (_, expr: string) => {
    const v = lookup(scope, expr)
    return typeof v === 'string' ? v : JSON.stringify(v)
  })
}

/** `a.b.0.c` or `a.b[0].c`; `x || 'fallback'` gives a default when `x` is missing. */
export function lookup(scope: Record<string, unknown>, expr: string): unknown {
  const [path, fallback] = expr.split('||').map((s) => s.trim())
  const parts = path.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean)
  let current: unknown = scope
  for (const part of parts) {
    if (current === null || typeof current !== 'object' || !(part in current)) {
      if (fallback !== undefined) return unquote(fallback)
      throw new TemplateError(`\${{ ${expr} }}: \`${path}\` is not defined (known: ${Object.keys(scope).join(', ')})`)
    }
    current = (current as Record<string, unknown>)[part]
  }
  return current
}

function unquote(text: string): unknown {
  const quoted = /^(['"])(.*)\1$/.exec(text)
  if (quoted) return quoted[2]
  const n = Number(text)
  return Number.isNaN(n) ? text : n
}
