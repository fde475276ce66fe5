import type { Actor } from '../domain/access.js'
import { SandboxError } from '../domain/errors.js'
import { requireScope } from '../domain/scopes.js'
import { dispatch, outcomeBody, outcomeStatus } from '../domain/dispatcher.js'
import { listLandingPages } from '../domain/landing-pages.js'
import { artifactView, stageArtifact } from '../domain/artifacts.js'
import type { StageInput } from '../domain/artifacts.js'
import { takeToken } from '../domain/rate-limits.js'
import { creditsView } from '../domain/billing.js'
import type { AppContext } from '../http/context.js'
import type { ToolCall } from './tool-table.js'
import { pageItems } from './tool-args.js'
import type { ToolBackend, ToolOutcome } from './server.js'

export interface InProcessBackendOptions {
  ctx: AppContext
  /** The caller of this request (hosted: from the credential; tests: fixed). Throws SandboxError when refused. */
  actor: () => Actor
}

/**
 * The hosted-MCP backend: runs tool calls in-process through the same domain code as REST (the
 * dispatcher with its scopes, credits, rate limits, safety gate and audit), with `surface: 'mcp'`
 * (MCP-05). A refusal becomes the same `{error, code}` body REST would send. State is committed
 * before the result is returned, as `handle()` does for REST.
 */
export function inProcessBackend(options: InProcessBackendOptions): ToolBackend {
  const { ctx } = options
  return {
    async run(call) {
      try {
        return await carryOut(ctx, options.actor(), call)
      } catch (error) {
        if (error instanceof SandboxError) return { status: error.status, body: error.toBody() }
        throw error
      } finally {
        await ctx.deps.store.commit()
      }
    },
  }
}

async function carryOut(ctx: AppContext, actor: Actor, call: ToolCall): Promise<ToolOutcome> {
  const { workspace } = actor
  switch (call.kind) {
    case 'credits':
      return ok(creditsView(ctx.deps, workspace, actor.key.id))
    case 'connections': {
      requireScope(actor.key.scopes, 'connections:read')
      const platform = call.platform?.toLowerCase()
      const all = ctx.deps.store.connections.filter((c) => c.workspace_id === workspace.id && (!platform || c.platform === platform))
      const { items: connections, ...page } = pageItems(all, call.paging)
      return ok({ connections, count: connections.length, ...page, sandbox: true })
    }
    case 'dispatch': {
      const outcome = dispatch(ctx.deps, { key: actor.key, user: actor.user }, {
        script_name: call.script, args: call.args, platform: call.platform ?? null, surface: 'mcp', dry_run: call.dry_run,
      })
      return { status: outcomeStatus(outcome), body: outcomeBody(outcome) }
    }
    // The two tools that bypass the dispatcher (DISP-09) do what their REST endpoints do.
    case 'landing_pages': {
      requireScope(actor.key.scopes, 'campaigns:read')
      takeToken(ctx.deps, actor)
      const landing_pages = listLandingPages(ctx.deps, workspace.id)
      return ok({ landing_pages, count: landing_pages.length, sandbox: true })
    }
    case 'stage_artifact': {
      requireScope(actor.key.scopes, 'audiences:write')
      takeToken(ctx.deps, actor)
      const artifact = stageArtifact(ctx.deps, actor, call.body as unknown as StageInput)
      return ok(artifactView(artifact), 201)
    }
  }
}

function ok(body: Record<string, unknown>, status = 200): ToolOutcome {
  return { status, body }
}
