import type { RestClient } from '../client/rest-client.js'
import { ServiceError } from '../client/errors.js'
import type { ToolCall } from './tool-table.js'
import { pageItems } from './tool-args.js'
import type { ToolBackend, ToolOutcome } from './server.js'

/**
 * The stdio backend (MCP-04): each tool call is one REST call with `Authorization: Bearer` through
 * the project's REST client, so the local server works against the sandbox or any deployment.
 * Without a key every call is a clear `isError` result, never a crash.
 */
export function restBackend(client: RestClient | null, targets: { baseUrl: string }): ToolBackend {
  return {
    async run(call) {
      if (!client) {
        return refusal(401, 'SERVICE_API_KEY_MISSING', 'SERVICE_API_KEY is not set: give the MCP server a key in its environment (e.g. the "env" block of your MCP client config).')
      }
      try {
        return { status: 200, body: await carryOut(client, call) }
      } catch (error) {
        if (error instanceof ServiceError) return { status: error.status, body: { ...error.body, code: error.code } }
        return refusal(502, 'SERVICE_UNREACHABLE', `Could not reach ${targets.baseUrl}: ${(error as Error).message}`)
      }
    },
  }
}

async function carryOut(client: RestClient, call: ToolCall): Promise<Record<string, unknown>> {
  switch (call.kind) {
    case 'dispatch':
      return client.run(call.script, call.args, call.platform, call.dry_run ? { dry_run: true } : {})
    case 'landing_pages':
      return client.getBase('/api/v1/landing-pages')
    case 'stage_artifact':
      return client.stageAudienceArtifact(call.body)
    case 'credits':
      return client.getApi('/v1/credits')
    case 'connections': {
      const body = await client.getApi('/v1/connections')
      if (!Array.isArray(body.connections)) return body
      const platform = call.platform?.toLowerCase()
      const all = (body.connections as Array<{ platform?: string }>).filter((c) => !platform || c.platform === platform)
      const { items: connections, ...page } = pageItems(all, call.paging)
      return { ...body, connections, count: connections.length, ...page }
    }
  }
}

function refusal(status: number, code: string, error: string): ToolOutcome {
  return { status, body: { error, code } }
}
