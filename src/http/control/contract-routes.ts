import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { Express } from 'express'
import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'

// From src/http/control (tsx) or dist/src/http/control (built): the shipped conformance/ folder.
const CANDIDATES = ['../../../conformance/openapi.yaml', '../../../../conformance/openapi.yaml']
  .map((rel) => fileURLToPath(new URL(rel, import.meta.url)))

let cached: string | null = null

/** The text of the shipped contract, read once (also the source of `Prefer: example=` answers). */
export function contractText(): string {
  if (cached) return cached
  const file = CANDIDATES.find((f) => existsSync(f))
  if (!file) throw new Error('conformance/openapi.yaml is missing from this installation')
  cached = readFileSync(file, 'utf8')
  return cached
}

/** `GET /_sandbox/info`: the hosts of this sandbox, so `conform --target URL` finds the api host. */
export function contractRoutes(ctx: AppContext): Route[] {
  return [
    {
      method: 'get',
      path: '/info',
      handler: () => ({
        body: {
          base_url: ctx.urls.base,
          api_url: ctx.urls.api,
          control_url: `${ctx.urls.base}/_sandbox`,
          openapi_url: `${ctx.urls.base}/_sandbox/openapi.yaml`,
        },
      }),
    },
  ]
}

/** `GET /_sandbox/openapi.yaml`: the contract (conformance/openapi.yaml), behind the admin token like the rest. */
export function mountContract(app: Express): void {
  app.get('/_sandbox/openapi.yaml', (_req, res) => {
    res.type('application/yaml').send(contractText())
  })
}
