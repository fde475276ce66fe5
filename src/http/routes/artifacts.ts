import { z } from 'zod'
import type { AppContext } from '../context.js'
import type { Route } from '../reply.js'
import { parseInput } from '../reply.js'
import { actorOf } from '../auth.js'
import { MAX_ARTIFACT_TTL_S, artifactView, stageArtifact } from '../../domain/artifacts.js'
import { takeToken } from '../../domain/rate-limits.js'

const artifactBody = z.object({
  body: z.array(z.string('every identifier must be a string'), 'must be an array of SHA-256 hex strings').min(1, 'must hold at least one identifier').max(100_000),
  identifier_type: z.string().transform((s) => s.toUpperCase()).pipe(z.enum(['EMAIL', 'PHONE'], 'must be EMAIL or PHONE')).optional(),
  script_name: z.string().min(1).optional(),
  ttl_seconds: z.number().int('must be an integer').min(60, 'must be at least 60').max(MAX_ARTIFACT_TTL_S, `must be at most ${MAX_ARTIFACT_TTL_S}`).optional(),
})

/**
 * `POST {api_url}/artifacts/audience-sync-input` (DISP-09): stages an audience artifact; only the
 * `X-Service-Key` header carries a key here (AUTH-02).
 */
export function artifactRoutes(ctx: AppContext): Route[] {
  return [
    {
      method: 'post',
      path: '/artifacts/audience-sync-input',
      handler: (req) => {
        const actor = actorOf(ctx, req, 'artifact', 'audiences:write')
        const body = parseInput(artifactBody, req.body)
        takeToken(ctx.deps, actor)
        const artifact = stageArtifact(ctx.deps, actor, body)
        return { status: 201, body: artifactView(artifact) }
      },
    },
  ]
}
