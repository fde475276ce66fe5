import Ajv2020 from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { ErrorObject } from 'ajv'

import type { SchemaProblem, ToolValidator } from '../domain/catalog-snapshot.js'

type AjvClass = typeof Ajv2020.default
const AjvCtor = Ajv2020 as unknown as AjvClass
const addFormats = addFormatsModule as unknown as (ajv: InstanceType<AjvClass>) => void

let shared: InstanceType<AjvClass> | null = null

// One Ajv for every snapshot: compiled validators are cached by schema object, and building an
// Ajv with its formats costs milliseconds that a 200-tool start-up must not pay per tool.
function ajv(): InstanceType<AjvClass> {
  if (!shared) {
    // strict: false: catalogs carry keywords of their own (`title` is standard, others are not).
    shared = new AjvCtor({ strict: false, allErrors: false, useDefaults: true, coerceTypes: false })
    addFormats(shared)
  }
  return shared
}

/**
 * Compiles a tool's `inputSchema` (JSON Schema 2020-12, the MCP default; FastMCP's `anyOf [T,
 * null]` optionals and `default`s included) with Ajv. A schema Ajv cannot compile refuses every call
 * with that reason rather than failing open.
 */
export function compileToolSchema(schema: Record<string, unknown>): ToolValidator {
  let validate: ReturnType<InstanceType<AjvClass>['compile']>
  try {
    validate = ajv().compile({ ...schema, $schema: undefined, $id: undefined })
  } catch (error) {
    const message = `the tool's inputSchema cannot be compiled: ${(error as Error).message}`
    return () => ({ path: 'inputSchema', message })
  }
  return (args) => (validate(args) ? null : problemOf(validate.errors?.[0]))
}

function problemOf(error: ErrorObject | undefined): SchemaProblem {
  if (!error) return { path: 'arguments', message: 'invalid' }
  const missing = error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined
  const extra = error.keyword === 'additionalProperties' ? (error.params as { additionalProperty?: string }).additionalProperty : undefined
  const base = error.instancePath ? error.instancePath.slice(1).replace(/\//g, '.') : ''
  const path = [base, missing ?? extra].filter(Boolean).join('.') || 'arguments'
  if (missing) return { path, message: 'Field required' }
  if (extra) return { path, message: 'Extra inputs are not permitted' }
  const allowed = error.keyword === 'enum' ? ` (${((error.params as { allowedValues?: unknown[] }).allowedValues ?? []).map((v) => JSON.stringify(v)).join(', ')})` : ''
  return { path, message: `${error.message ?? 'invalid'}${allowed}` }
}
