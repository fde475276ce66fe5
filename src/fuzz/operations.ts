import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { OPENAPI_PATH } from '../../conformance/contract.js'

/** One operation of `conformance/openapi.yaml`, with the host that serves it. */
export interface Operation {
  method: string
  /** The contract's path template, e.g. `/v1/campaigns/{id}`. */
  template: string
  host: 'base' | 'api'
  operationId: string
  /** Path parameter names, in order. */
  params: string[]
  /** True for `/_sandbox/*` (the control plane, behind the admin token here). */
  control: boolean
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

/** Every operation the contract documents (both hosts, `/mcp` and the control plane). */
export function contractOperations(file = OPENAPI_PATH): Operation[] {
  const doc = parse(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, { operationId?: string }>> }
  return Object.entries(doc.paths).flatMap(([template, item]) => METHODS.filter((m) => item[m]).map((m) => ({
    method: m.toUpperCase(),
    template,
    // As conformance/contract.ts decides: `/v1/` and `/artifacts/` live on the api host.
    host: template.startsWith('/v1/') || template.startsWith('/artifacts/') ? 'api' as const : 'base' as const,
    operationId: item[m].operationId ?? `${m} ${template}`,
    params: [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]),
    control: template.startsWith('/_sandbox'),
  })))
}

/** The path of `op` with each parameter replaced by `values[name]` (already encoded as wanted). */
export function fillPath(op: Operation, values: Record<string, string>): string {
  return op.template.replace(/\{(\w+)\}/g, (_all, name: string) => values[name] ?? 'x')
}
