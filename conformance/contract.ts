import { fileURLToPath } from 'node:url'
import { getHttpOperationsFromSpec } from '@stoplight/prism-http'
import { validateOutput } from '@stoplight/prism-http/dist/validator/index.js'
import routerModule from '@stoplight/prism-http/dist/router/index.js'
import type { IHttpOperation } from '@stoplight/types'
import type { Exchange, Violation } from './types.js'

/** The shipped contract (OpenAPI 3.1), also served at `{base_url}/_sandbox/openapi.yaml`. */
export const OPENAPI_PATH = fileURLToPath(new URL('./openapi.yaml', import.meta.url).href.replace('/dist/conformance/', '/conformance/'))

// A CJS default export arrives as `.default` under node but directly under vitest (deps-probe §3).
const route = ((routerModule as unknown as { default?: typeof routerModule }).default ?? routerModule) as unknown as (
  opts: { resources: IHttpOperation[]; input: unknown },
) => { _tag: 'Left' | 'Right'; right?: IHttpOperation; left?: unknown }

/** Which host serves a path (the contract documents both hosts in one file). */
function hostOfPath(path: string): 'base' | 'api' {
  return path.startsWith('/v1/') || path.startsWith('/artifacts/') ? 'api' : 'base'
}

interface Diagnostic {
  path?: Array<string | number>
  message: string
  severity: number
  code?: string | number
}

/**
 * Validates exchanges against the contract in-process with prism-http's router and validators
 * (pinned 5.12.0; deep `dist/` imports). A request whose path the contract does not document for
 * its host (a negative test such as `{api_url}/api/v1/keys`) is not checked.
 */
export class Contract {
  private constructor(private readonly operations: IHttpOperation[]) {}

  static async load(path = OPENAPI_PATH): Promise<Contract> {
    return new Contract(await getHttpOperationsFromSpec(path))
  }

  get operationCount(): number {
    return this.operations.length
  }

  validate(exchange: Exchange): Violation[] {
    if (exchange.host !== 'url' && hostOfPath(exchange.path) !== exchange.host) return []
    const headers = { ...exchange.request.headers }
    const request = {
      method: exchange.method.toLowerCase() as 'get',
      url: { path: exchange.path, query: toQuery(exchange.request.query) },
      headers,
      body: exchange.request.body,
    }
    const op = route({ resources: this.operations, input: request })
    if (op._tag === 'Left' || !op.right) return []
    const output = validateOutput({
      resource: op.right,
      element: { statusCode: exchange.response.status, headers: exchange.response.headers, body: exchange.response.body },
    })
    return diagnostics(output, 'response').filter((v) => v.severity === 'error')
  }
}

function diagnostics(result: unknown, where: string): Violation[] {
  const either = result as { _tag: string; left?: Diagnostic[] }
  if (either._tag !== 'Left' || !either.left) return []
  return either.left.map((d) => ({
    location: [where, ...(d.path ?? [])].join('.'),
    message: d.message,
    // Prism severities: 0 error, 1 warning; an undocumented status is a warning in Prism but an
    // error for us (every documented status must be in the contract).
    severity: d.severity === 0 || /status code/.test(d.message) ? 'error' : 'warn',
  }))
}

function toQuery(query: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [v]]))
}
