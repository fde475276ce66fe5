import { SandboxError } from './errors.js'

/** Scopes the spec names (AUTH-04). */
export const SPEC_SCOPES = ['reporting:read', 'workspace:read', 'workspace:write', 'connections:write'] as const

/** Scopes the sandbox adds where the spec is silent (RULES.md sandbox decision). */
export const SANDBOX_SCOPES = [
  'campaigns:read', 'campaigns:write', 'budget:write', 'creative:write', 'audiences:write',
  'connections:read', 'tools:read',
] as const

export const ALL_SCOPES: readonly string[] = [...SPEC_SCOPES, ...SANDBOX_SCOPES]

export function isKnownScope(scope: string): boolean {
  return ALL_SCOPES.includes(scope)
}

/** 403 `SCOPE_MISSING` naming the scope when `scopes` lacks it (AUTH-04). */
export function requireScope(scopes: readonly string[], scope: string): void {
  if (!scopes.includes(scope)) throw new SandboxError('SCOPE_MISSING', { scope })
}

/** Expands the shorthand `*` in world files to every scope. */
export function expandScopes(scopes: readonly string[]): string[] {
  return scopes.includes('*') ? [...ALL_SCOPES] : [...new Set(scopes)]
}
