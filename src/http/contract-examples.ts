import { parse } from 'yaml'
import { contractText } from './control/contract-routes.js'

/** One named example of a documented response: what `Prefer: example=<name>` answers. */
export interface ContractExample {
  name: string
  status: number
  body: unknown
  /** Response headers the contract gives an example value for (`Retry-After` on a 429). */
  headers: Record<string, string>
}

interface Operation {
  method: string
  pattern: RegExp
  examples: ContractExample[]
}

type Node = Record<string, unknown>

let operations: Operation[] | null = null

/**
 * The named examples of the operation serving `method path`, from conformance/openapi.yaml (read
 * on first use), or null when the contract documents no such operation. `$ref`s to shared
 * responses, examples and headers are followed, so an example on `components/responses/RateLimited`
 * is an example of every route that answers 429 (issue 19 item 4).
 */
export function examplesFor(method: string, path: string): ContractExample[] | null {
  operations ??= loadOperations(parse(contractText(), { merge: true }) as Node)
  const wanted = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()
  return operations.find((op) => op.method === wanted && op.pattern.test(path))?.examples ?? null
}

function loadOperations(doc: Node): Operation[] {
  const out: Operation[] = []
  for (const [path, item] of Object.entries((doc.paths ?? {}) as Record<string, Node>)) {
    // `{id}` matches one path segment, as express's `:id` does.
    const pattern = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`)
    for (const [method, op] of Object.entries(item)) {
      const responses = ((op as Node).responses ?? {}) as Record<string, Node>
      const examples = Object.entries(responses).flatMap(([status, response]) => examplesOf(doc, Number(status), resolve(doc, response)))
      out.push({ method, pattern, examples })
    }
  }
  return out
}

function examplesOf(doc: Node, status: number, response: Node): ContractExample[] {
  if (!Number.isInteger(status)) return []
  const media = ((response.content ?? {}) as Record<string, Node>)['application/json']
  const named = (media?.examples ?? {}) as Record<string, Node>
  const headers = headerExamples(doc, response)
  return Object.entries(named).map(([name, example]) => ({ name, status, body: resolve(doc, example).value, headers }))
}

function headerExamples(doc: Node, response: Node): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Node>)) {
    const example = resolve(doc, header).example
    if (example !== undefined) out[name] = String(example)
  }
  return out
}

// A local `$ref` (`#/components/responses/RateLimited`), followed until it is not one.
function resolve(doc: Node, node: Node): Node {
  let current = node
  for (let hops = 0; typeof current?.$ref === 'string' && hops < 10; hops++) {
    current = (current.$ref as string).replace(/^#\//, '').split('/').reduce<unknown>((at, key) => (at as Node)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc) as Node
  }
  return current ?? {}
}
