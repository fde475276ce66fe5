import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import Ajv2020 from 'ajv/dist/2020.js'
import { OPENAPI_PATH } from './contract.js'

/**
 * Every named example in the contract is valid against the schema it illustrates (issue 19 item 4):
 * the sandbox answers them for `Prefer: example=<name>` and Prism's mock serves them, so an invalid
 * one would teach clients a shape neither the spec nor the sandbox has.
 */

type Node = Record<string, any>
const doc = parse(readFileSync(OPENAPI_PATH, 'utf8'), { merge: true }) as Node

// The contract as one schema resource, so `#/components/schemas/…` refs resolve inside it.
const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true, validateFormats: false })
ajv.addSchema({ $id: 'https://contract.local/openapi', components: doc.components }, 'contract')

function resolve(node: Node): Node {
  let current = node
  while (typeof current?.$ref === 'string') current = current.$ref.slice(2).split('/').reduce((at: Node, key: string) => at?.[key], doc)
  return current
}

/** `[where, schema, value]` for every example of a response body or header, following `$ref`s. */
function examples(): Array<[string, Node, unknown]> {
  const out: Array<[string, Node, unknown]> = []
  for (const [path, item] of Object.entries(doc.paths as Node)) {
    for (const [method, op] of Object.entries(item as Node)) {
      for (const [status, ref] of Object.entries((op.responses ?? {}) as Node)) {
        const response = resolve(ref)
        for (const [type, media] of Object.entries((response.content ?? {}) as Node)) {
          for (const [name, example] of Object.entries((media.examples ?? {}) as Node)) {
            out.push([`${method.toUpperCase()} ${path} ${status} ${type} ${name}`, media.schema, resolve(example).value])
          }
          if (media.example !== undefined) out.push([`${method.toUpperCase()} ${path} ${status} ${type} (example)`, media.schema, media.example])
        }
        for (const [name, header] of Object.entries((response.headers ?? {}) as Node)) {
          const h = resolve(header)
          if (h.example !== undefined) out.push([`${method.toUpperCase()} ${path} ${status} header ${name}`, h.schema, h.example])
        }
      }
    }
  }
  return out
}

// A schema from the document, with its local refs pointed at the registered contract resource.
function compile(schema: Node) {
  const text = JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"https://contract.local/openapi#/')
  return ajv.compile(JSON.parse(text))
}

const all = examples()

describe('examples in conformance/openapi.yaml', () => {
  it('name realistic answers on the public routes: held, 402, 429, a campaign list and more', () => {
    const names = new Set(all.map(([where]) => where.split(' ').pop()))
    for (const name of ['held', 'insufficient-credits', 'rate-limited', 'campaign-list', 'policy-blocked', 'unrecognized-args', 'credits']) expect(names).toContain(name)
    expect(all.length).toBeGreaterThan(100)
  })

  it.each(all)('%s is valid against its schema', (_where, schema, value) => {
    const validate = compile(schema)
    expect(validate(value), JSON.stringify(validate.errors, null, 1)).toBe(true)
  })

  it('catches an example that breaks its schema (the check is not vacuous)', () => {
    const [, schema, value] = all.find(([where]) => where.startsWith('POST /api/v1/tools/run 402'))!
    expect(compile(schema)(value)).toBe(true)
    expect(compile(schema)({ ...(value as Node), code: 'lower_case' })).toBe(false)
    const [, held, body] = all.find(([where]) => where.startsWith('POST /api/v1/tools/run 202'))!
    expect(compile(held)({ ...(body as Node), status: 'done' })).toBe(false)
  })
})
