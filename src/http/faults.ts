import type { Express, NextFunction, Request, RequestHandler, Response } from 'express'
import type { AppContext } from './context.js'
import type { FaultRule, FaultStep } from '../domain/model.js'
import { anyCredential } from './credentials.js'
import { keepRawBody } from './journal.js'
import { jsonBody } from './body.js'
import { JSON_LIMIT } from './base-app.js'
import { hashKey, keyWorkspaceId } from '../domain/access.js'
import { iso } from '../domain/durations.js'
import type { FaultRequest, Miss } from './fault-match.js'
import { missesOf, readsBody } from './fault-match.js'
import { nearMissesOf } from './near-misses.js'
import { withRequestId } from './request-id.js'

const RUN_PATHS = new Set(['/api/v1/tools/run', '/v1/tools/run'])
const DEFAULT_CODES: Record<number, string> = {
  400: 'INVALID_REQUEST', 401: 'AUTHENTICATION_REQUIRED', 402: 'INSUFFICIENT_CREDITS', 403: 'FORBIDDEN', 404: 'NOT_FOUND',
  409: 'CONFLICT', 429: 'RATE_LIMITED', 500: 'INTERNAL_ERROR', 502: 'UPSTREAM_ERROR', 503: 'SERVICE_UNAVAILABLE', 504: 'UPSTREAM_TIMEOUT',
}

/** A mount for `createBaseApp`/`createApiApp` that installs the fault middleware on `host`. */
export function mountFaults(host: 'base' | 'api') {
  return (app: Express, ctx: AppContext): void => {
    app.use(faultMiddleware(ctx, host))
  }
}

/**
 * Scripted faults on a public host (DESIGN control plane `/_sandbox/faults`): the first rule that
 * matches and still has a step fires it — respond with a status/headers/body, delay, drop the
 * connection, or pass through. The exchange is marked in the journal (`fault: "<rule>#<step>"`).
 */
export function faultMiddleware(ctx: AppContext, host: 'base' | 'api'): RequestHandler {
  const json = jsonBody({ limit: JSON_LIMIT, verify: keepRawBody })
  return (req: Request, res: Response, next: NextFunction): void => {
    const rules = activeFaultRules(ctx)
    if (rules.length === 0) return next()
    // The dispatcher's body is always read (script name, flags); other JSON bodies only while a rule reads bodies.
    if (!RUN_PATHS.has(req.path) && !rules.some(readsBody)) return fire(ctx, rules, host, req, res, next)
    json(req, res, (error?: unknown) => (error ? next(error) : fire(ctx, rules, host, req, res, next)))
  }
}

/** The fault rules that still have a step to fire; none means no exchange can be faulted. */
export function activeFaultRules(ctx: AppContext): FaultRule[] {
  return ctx.deps.store.faults.filter((r) => currentStep(r) !== null)
}

function fire(ctx: AppContext, rules: FaultRule[], host: 'base' | 'api', req: Request, res: Response, next: NextFunction): void {
  const request = faultRequest(ctx, host, req)
  const misses: Array<{ rule: FaultRule; failed: Miss[] }> = []
  const rule = rules.find((r) => {
    const failed = missesOf(r, request)
    if (failed.length > 0) misses.push({ rule: r, failed })
    return failed.length === 0
  })
  if (!rule) {
    nearMissesOf(ctx).record(iso(ctx.deps.clock.now()), request, misses)
    return next()
  }
  const { step, index } = advance(ctx, rule)
  const acts = step.status !== undefined || step.drop || (step.delay_ms ?? 0) > 0
  if (acts) res.locals.fault = `${rule.id}#${index + 1}`
  const respond = () => {
    if (step.drop) {
      req.socket.destroy()
      return
    }
    if (step.pass || step.status === undefined) return next()
    res.set(headersOf(step)).status(step.status).json(step.body ?? withRequestId(defaultBody(rule, step.status), req, res))
  }
  if (step.delay_ms) setTimeout(respond, step.delay_ms)
  else respond()
}

/** The step a rule would fire next, or null once every step has used its `times`. */
export function currentStep(rule: FaultRule): { step: FaultStep; index: number } | null {
  let { step: index, used } = rule.cursor
  while (index < rule.steps.length) {
    const step = rule.steps[index]
    if (step.times === null || used < step.times) return { step, index }
    index++
    used = 0
  }
  return null
}

function advance(ctx: AppContext, rule: FaultRule): { step: FaultStep; index: number } {
  const current = currentStep(rule) as { step: FaultStep; index: number }
  const used = current.index === rule.cursor.step ? rule.cursor.used + 1 : 1
  ctx.deps.store.faults.update(rule.id, { cursor: { step: current.index, used }, hits: rule.hits + 1 })
  return current
}

function faultRequest(ctx: AppContext, host: 'base' | 'api', req: Request): FaultRequest {
  const credential = anyCredential(req, ctx.keyHeaders)
  return { method: req.method, host, path: req.path, credential, body: req.body as unknown, workspace: () => workspaceOf(ctx, credential) }
}

function workspaceOf(ctx: AppContext, credential: string | null): string | null {
  if (!credential) return null
  const key = ctx.deps.store.keys.findBy('hash', hashKey(credential))
  return key ? keyWorkspaceId(ctx.deps, key) : null
}

/** A 429 gets `Retry-After: 1` unless the step names that header; an empty value leaves a header out (a 429 without Retry-After, SDK-03). */
function headersOf(step: FaultStep): Record<string, string> {
  const given = step.headers ?? {}
  const named = Object.keys(given).some((name) => name.toLowerCase() === 'retry-after')
  const all = { ...(step.status === 429 && !named ? { 'Retry-After': '1' } : {}), ...given }
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== ''))
}

function defaultBody(rule: FaultRule, status: number): Record<string, unknown> {
  if (status < 400) return { sandbox: true, fault_id: rule.id }
  return { error: `Scripted fault ${rule.id}: HTTP ${status}.`, code: DEFAULT_CODES[status] ?? 'FAULT_INJECTED', fault_id: rule.id }
}
