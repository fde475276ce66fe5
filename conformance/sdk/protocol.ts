import { z } from 'zod'

/**
 * The SDK adapter protocol (docs/guide-sdk.md): JSON lines on the adapter's stdin/stdout.
 * The runner sends `{id, op, params}`; the adapter answers each with `{id, ok: true, value}` or
 * `{id, ok: false, error: {kind, status, code, message}}`, in any order.
 */
export const OPS = ['configure', 'execute', 'pause', 'update_budget', 'performance', 'version'] as const
export type Op = (typeof OPS)[number] | (string & {})

export const ERROR_KINDS = ['http', 'network', 'timeout', 'validation', 'unsupported'] as const
export type AdapterErrorKind = (typeof ERROR_KINDS)[number]

export interface AdapterRequest {
  id: number
  op: Op
  params: Record<string, unknown>
}

/** An optional field: absent, or `null` as languages without "absent" write it (Python `None`, Go `nil`). */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined)

export const adapterError = z.object({
  kind: z.enum(ERROR_KINDS),
  /** The HTTP status for `http`; 0, `null` or absent otherwise. */
  status: optional(z.number().int()),
  code: optional(z.string()),
  message: optional(z.string()),
}).loose()
export type AdapterErrorBody = z.infer<typeof adapterError>

export const adapterAnswer = z.discriminatedUnion('ok', [
  z.object({ id: z.number().int(), ok: z.literal(true), value: z.unknown().optional() }),
  z.object({ id: z.number().int(), ok: z.literal(false), error: adapterError }),
])

/** Why a line is not a valid answer, naming the first field at fault (`error.kind: …`). */
export function protocolProblem(error: z.ZodError): string {
  const issue = error.issues[0]
  const field = issue.path.length ? issue.path.join('.') : 'the answer'
  return `${field}: ${issue.message}`
}
export type AdapterAnswer = z.infer<typeof adapterAnswer>

/** `configure` params: where and how the SDK talks to the service; a missing field means the SDK's default. */
export interface ConfigureParams {
  base_url: string
  api_url: string
  api_key: string
  timeout_ms?: number
  max_retries?: number
}

/** What `version` answers: the SDK's name and version (`name@version` selects baseline entries). */
export const versionValue = z.object({ name: z.string().min(1), version: z.string().min(1) }).loose()
