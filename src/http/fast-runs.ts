import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { AppContext } from './context.js'
import type { Caller } from '../domain/access.js'
import type { Reply } from './reply.js'
import { markUsed } from '../domain/access.js'
import { authenticateRequest } from './credential-hints.js'
import { FastExchange } from './fast-path.js'
import { plainJsonLength, readJsonObject } from './fast-body.js'
import { runTool } from './routes/tools.js'

const RUN_PATH = '/api/v1/tools/run'

/**
 * The base host's request listener: `POST /api/v1/tools/run` (DISP-01) with a plain JSON object
 * body is answered without express, by the route's own `runTool`, because express's per-request
 * work was most of the dispatcher's cost (bench/README.md). The body is read first; anything
 * express would parse differently (another content type or encoding, no length, a body that is not
 * a JSON object) is pushed back onto the request and handed to `app`, which then reads it as if
 * it were first. Once the body is a JSON object, every outcome (success, held, blocked, a refusal)
 * is the route's and renders as express renders it.
 */
export function withFastRuns(ctx: AppContext, app: RequestListener): RequestListener {
  return (req, res) => {
    const length = plainLength(ctx, req)
    if (length === null) return app(req, res)
    const exchange = new FastExchange(ctx, { host: 'base', path: RUN_PATH, query: {}, req, res })
    readJsonObject(req, length, {
      take: (input, text) => {
        exchange.requestBody = text
        answer(ctx, exchange, req, input)
      },
      fallBack: () => app(req, res),
    })
  }
}

function answer(ctx: AppContext, exchange: FastExchange, req: IncomingMessage, input: object): void {
  let caller: Caller | undefined
  let reply: Reply
  try {
    reply = runTool(ctx, { input: () => input, caller: () => (caller = authenticateRequest(ctx.deps, req, 'tools', ctx.keyHeaders)), surface: 'rest' })
  } catch (error) {
    return exchange.fail(error)
  }
  // As `handle` does: only a request that succeeded marks its key used.
  if (caller && (reply.status ?? 200) < 400) markUsed(ctx.deps, caller)
  exchange.replyAfterCommit(reply)
}

/** The body length of a request this path may take, or null to leave it to express. */
function plainLength(ctx: AppContext, req: IncomingMessage): number | null {
  return req.url === RUN_PATH ? plainJsonLength(ctx, req) : null
}
