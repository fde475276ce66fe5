import { isMap, isPair, isScalar, LineCounter, parseDocument } from 'yaml'
import type { z } from 'zod'

/** A YAML file that failed to parse or validate, located as `file:line:column`. */
export class YamlLoadError extends Error {
  readonly file: string
  readonly problems: YamlProblem[]

  constructor(file: string, problems: YamlProblem[]) {
    super(problems.map((p) => `${file}:${p.line}:${p.column} ${p.path ? `${p.path}: ` : ''}${p.message}`).join('\n'))
    this.name = 'YamlLoadError'
    this.file = file
    this.problems = problems
  }
}

export interface YamlProblem {
  line: number
  column: number
  path: string
  message: string
}

/**
 * Parses YAML text and validates it with a zod schema. Every problem (syntax, unknown key, wrong
 * type) is reported with its position and JSON path, so a typo in a world or scenario file points
 * at the line to fix.
 */
export function parseYaml<S extends z.ZodType>(text: string, file: string, schema: S): z.output<S> {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: false })
  if (doc.errors.length > 0) {
    throw new YamlLoadError(file, doc.errors.map((e) => {
      const pos = lineCounter.linePos(e.pos[0])
      return { line: pos.line, column: pos.col, path: '', message: e.message.split('\n')[0] }
    }))
  }
  const result = schema.safeParse(doc.toJS())
  if (result.success) return result.data
  throw new YamlLoadError(file, result.error.issues.map((issue) => {
    const path = issue.path.map((p) => (typeof p === 'number' ? p : String(p)))
    const unknownKey = issue.code === 'unrecognized_keys' ? issue.keys[0] : undefined
    const offset = offsetOf(doc, path, unknownKey)
    const pos = lineCounter.linePos(offset)
    // A required key that is not there at all: say so, not zod's "expected string, received undefined".
    const missing = issue.code === 'invalid_type' && path.length > 0 && !doc.hasIn(path)
    return { line: pos.line, column: pos.col, path: formatPath(path, unknownKey), message: missing ? `required key missing (${issue.expected} expected)` : describe(issue) }
  }))
}

function offsetOf(doc: ReturnType<typeof parseDocument>, path: Array<string | number>, key?: string): number {
  // Walk up until a node exists (a missing key points at its parent object).
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true)
    if (!node || typeof node !== 'object') continue
    if (key && depth === path.length && isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === key)
      if (pair && isScalar(pair.key) && pair.key.range) return pair.key.range[0]
    }
    const range = (node as { range?: [number, number, number] }).range
    if (range) return range[0]
  }
  return 0
}

function formatPath(path: Array<string | number>, key?: string): string {
  const parts = key ? [...path, key] : path
  return parts.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('')
}

function describe(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `\`${k}\``).join(', ')}`
  return issue.message
}
