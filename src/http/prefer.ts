import type { Express, NextFunction, Request, Response } from 'express'
import type { AppContext } from './context.js'
import type { Surface } from './credentials.js'
import { authenticateRequest } from './credential-hints.js'
import { SandboxError } from '../domain/errors.js'
import { replyBody, withRequestId } from './request-id.js'
import type { ContractExample } from './contract-examples.js'
import { examplesFor } from './contract-examples.js'

/** One preference of a `Prefer` header (RFC 7240): `code=429` → `{name: 'code', value: '429'}`. */
export interface Preference {
  name: string
  value: string | null
  raw: string
}

/** Statuses `Prefer: code=` can force, each with a body the contract allows (issue 19 item 4). */
const ANSWERS: Record<number, () => SandboxError> = {
  400: () => new SandboxError('INVALID_REQUEST', { reason: 'A 400 the client asked for (Prefer: code=400).' }),
  401: () => new SandboxError('AUTHENTICATION_REQUIRED', { detail: 'the client asked for a 401 (Prefer: code=401)' }),
  402: () => new SandboxError('INSUFFICIENT_CREDITS', { needed: 1, balance: 0 }),
  403: () => new SandboxError('SCOPE_MISSING', { scope: 'the scope this route needs' }),
  404: () => new SandboxError('NOT_FOUND', { what: 'The resource (Prefer: code=404)' }),
  409: () => new SandboxError('CONFLICT', { reason: 'A conflict the client asked for (Prefer: code=409).' }),
  429: () => new SandboxError('RATE_LIMITED', { scope: 'key', retry_after: 1 }, { 'Retry-After': '1' }),
  500: () => new SandboxError('INTERNAL_ERROR', { reason: 'a failure the client asked for (Prefer: code=500)' }),
}

/** The statuses `Prefer: code=` can force. */
export const PREFERRED_STATUSES = Object.keys(ANSWERS).map(Number)

/** The preferences of a `Prefer` header, in order; all lines of a repeated header count. */
export function parsePrefer(header: string | string[] | undefined): Preference[] {
  const text = Array.isArray(header) ? header.join(',') : header ?? ''
  return text.split(',').map((p) => p.trim()).filter(Boolean).map((raw) => {
    const [token] = raw.split(';')
    const at = token.indexOf('=')
    const name = (at < 0 ? token : token.slice(0, at)).trim().toLowerCase()
    const value = at < 0 ? null : token.slice(at + 1).trim().replace(/^"(.*)"$/, '$1')
    return { name, value, raw: raw.slice(0, 100) }
  })
}

/**
 * Prism's levers for one-off answers, on the public routes of both hosts (`/api/v1/*` on the base
 * host, `/v1/*` on the api host): `Prefer: code=<status>` answers that status once with a
 * contract-valid error body (a 429 with `Retry-After`, a 402 with `needed` and `balance`);
 * `Prefer: example=<name>` answers the contract's example of that name for the route (its status,
 * its headers, its body; with `code=` too, only that status's examples count). Either runs
 * nothing, charges nothing, and is journaled as a scripted answer (`fault: "prefer:code=429"`,
 * `"prefer:example=held"`). Authentication still comes first: a caller without a valid key gets
 * the route's 401. An example the route does not name is a 400 `UNKNOWN_EXAMPLE` listing the names
 * it has (a typo must not run the real call). What was honoured is named in `Preference-Applied`;
 * what was not, and why, in `Preference-Ignored`.
 */
export function mountPrefer(host: 'base' | 'api') {
  const prefix = host === 'base' ? '/api/v1/' : '/v1/'
  return (app: Express, ctx: AppContext): void => {
    app.use((req: Request, res: Response, next: NextFunction) => {
      if (req.headers.prefer === undefined || !req.path.startsWith(prefix)) return next()
      const preferences = parsePrefer(req.headers.prefer)
      const example = preferences.find((p) => p.name === 'example')
      const code = preferences.find((p) => p.name === 'code')
      const ignored = preferences.filter((p) => p.name !== 'code' && p.name !== 'example').map((p) => `${p.raw} (not supported here)`)
      const examples = example ? examplesFor(req.method, req.path) : null
      if (example && !examples) ignored.push(`${example.raw} (the contract documents no ${req.method} ${req.path})`)
      const status = Number(code?.value)
      if (code && !examples && !ANSWERS[status]) ignored.push(`${code.raw} (code must be one of ${PREFERRED_STATUSES.join(', ')})`)
      if (ignored.length) res.setHeader('Preference-Ignored', ignored.join(', '))
      const scripted = example && examples ? 'example' : code && ANSWERS[status] ? 'code' : null
      if (!scripted || !authenticated(ctx, req, surfaceOf(req.path))) return next()
      if (scripted === 'example') return answerExample({ req, res, name: example?.value ?? '', status: code ? status : null, examples: examples ?? [] })
      const error = ANSWERS[status]()
      res.locals.fault = `prefer:code=${status}`
      res.set({ ...error.headers, 'Preference-Applied': `code=${status}` }).status(error.status).json(withRequestId(error.toBody(), req, res))
    })
  }
}

/** The named example, once, as the contract writes it; an error body also names its request. */
function answerExample(o: { req: Request; res: Response; name: string; status: number | null; examples: ContractExample[] }): void {
  const { req, res, name, status } = o
  const candidates = status === null ? o.examples : o.examples.filter((e) => e.status === status)
  const found = candidates.find((e) => e.name === name)
  if (!found) {
    const available = [...new Set(candidates.map((e) => e.name))]
    const hint = available.length ? `Examples it names here${status === null ? '' : ` for ${status}`}: ${available.join(', ')}.` : `It names no examples here${status === null ? '' : ` for ${status}`}.`
    const error = new SandboxError('UNKNOWN_EXAMPLE', { example: name, method: req.method, path: req.path, available, hint })
    res.status(error.status).json(withRequestId(error.toBody(), req, res))
    return
  }
  res.locals.fault = `prefer:example=${found.name}`
  const applied = status === null ? `example=${found.name}` : `code=${status}, example=${found.name}`
  res.set({ ...found.headers, 'Preference-Applied': applied }).status(found.status).json(replyBody(found.status, found.body, req, res))
}

// Anonymous callers get the route's own 401 whatever they prefer (authentication comes first).
function authenticated(ctx: AppContext, req: Request, surface: Surface): boolean {
  try {
    authenticateRequest(ctx.deps, req, surface, ctx.keyHeaders)
    return true
  } catch (error) {
    if (error instanceof SandboxError) return false
    throw error
  }
}

function surfaceOf(path: string): Surface {
  if (path.startsWith('/api/v1/tools') || path === '/v1/tools/run') return 'tools'
  return path.startsWith('/v1/artifacts') ? 'artifact' : 'resource'
}
