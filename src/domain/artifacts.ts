import type { Deps } from './ports.js'
import { nowIn } from './workspace-time.js'
import type { AudienceArtifact } from './model.js'
import type { Actor } from './access.js'
import { iso } from './durations.js'
import { invalidRequest } from './errors.js'

export const SHA256_HEX = /^[a-f0-9]{64}$/
export const DEFAULT_ARTIFACT_TTL_S = 3600
export const MAX_ARTIFACT_TTL_S = 7 * 86_400

export interface StageInput {
  body: string[]
  identifier_type?: 'EMAIL' | 'PHONE'
  script_name?: string
  ttl_seconds?: number
}

/**
 * Stages hashed identifiers for an audience script (DISP-09, `stage_audience_artifact`). Only
 * SHA-256 hex is accepted: a raw e-mail or phone number is refused naming its position. The
 * artifact expires `ttl_seconds` later on the sandbox clock; hashes are counted, not kept.
 */
export function stageArtifact(deps: Deps, actor: Actor, input: StageInput): AudienceArtifact & { ttl_seconds: number } {
  const bad = input.body.findIndex((h) => !SHA256_HEX.test(h))
  if (bad >= 0) throw invalidRequest(`body[${bad}] is not a lowercase SHA-256 hex digest; hash normalised identifiers before staging`, `body.${bad}`)
  const ttl = input.ttl_seconds ?? DEFAULT_ARTIFACT_TTL_S
  const now = nowIn(deps, actor.workspace.id)
  const artifact: AudienceArtifact = {
    id: deps.ids.next('art'),
    workspace_id: actor.workspace.id,
    key_id: actor.key.id,
    script_name: input.script_name ?? 'google_ads_create_customer_match',
    identifier_type: input.identifier_type ?? 'EMAIL',
    record_count: new Set(input.body).size,
    created_at: iso(now),
    expires_at: iso(now + ttl * 1000),
  }
  deps.store.artifacts.insert(artifact)
  return { ...artifact, ttl_seconds: ttl }
}

/** A live artifact of the workspace, or the reason it cannot be used. */
export function usableArtifact(deps: Deps, workspaceId: string, id: string): AudienceArtifact | string {
  const artifact = deps.store.artifacts.get(id)
  if (!artifact || artifact.workspace_id !== workspaceId) return `no artifact ${id} in this workspace`
  if (Date.parse(artifact.expires_at) <= nowIn(deps, workspaceId)) return `artifact ${id} expired at ${artifact.expires_at}`
  return artifact
}

/** The staged-artifact answer of `POST {api_url}/artifacts/audience-sync-input` and its MCP tool (DISP-09). */
export function artifactView(artifact: AudienceArtifact & { ttl_seconds: number }) {
  const { id: artifact_id, script_name, identifier_type, ttl_seconds, record_count, expires_at } = artifact
  return { artifact_id, script_name, identifier_type, ttl_seconds, record_count, expires_at, sandbox: true }
}
