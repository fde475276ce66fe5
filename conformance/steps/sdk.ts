import { z } from 'zod'
import { duration } from '../schema.js'
import type { StepContext, StepSubject, Target } from '../types.js'
import type { AdapterAnswer } from '../sdk/protocol.js'
import type { SdkSession, SdkTarget } from '../sdk/sdk-target.js'
import { parseMs, sleep } from '../time.js'
import { recordCaused } from '../sdk/caused.js'
import { registerStepKind } from './registry.js'
import { sdkJournalSchema, runSdkJournal } from './sdk-journal.js'

/**
 * `sdk`: one operation on the SDK under test, through its adapter (docs/guide-sdk.md).
 * The result is the adapter's answer: `status` 200 when ok, the HTTP status of an `http` error,
 * 599 for a `network`, `timeout` or `validation` error; the body is `{ok, value}` or `{ok, error}`.
 * An `unsupported` answer skips the step. The journal range it caused feeds `sdk_journal`.
 */
export const sdkSchema = z.strictObject({
  op: z.string().min(1),
  params: z.record(z.string(), z.unknown()).default({}),
  /** The credential the SDK is configured with: a world key name or a value (default `owner`). */
  auth: z.string().default('owner'),
  /** How long the runner waits for the adapter's answer. */
  timeout: duration.default('120s'),
})
export type SdkSpec = z.output<typeof sdkSchema>

export async function runSdk(spec: SdkSpec, ctx: StepContext): Promise<StepSubject> {
  const s = ctx.render(spec)
  const target = ctx.target as SdkTarget
  if (!target.sdk) return { skipped: 'no SDK under test (run with --sdk "<adapter command>")' }
  const session = target.sdk
  return session.exclusive(async () => {
    const notes: string[] = []
    if (s.op === 'configure') session.overrides.set(ctx.scenario, s.params)
    const config = {
      base_url: target.baseUrl,
      api_url: target.apiUrl,
      api_key: target.credentials[s.auth] ?? s.auth,
      ...session.overrides.get(ctx.scenario),
    }
    const text = JSON.stringify(config)
    if (s.op === 'configure' || text !== session.lastConfig) {
      session.lastConfig = null
      const answer = await session.adapter.call('configure', config, 30_000)
      notes.push(`configure ${JSON.stringify({ ...config, api_key: `${config.api_key.slice(0, 12)}…` })} → ${summary(answer)}`)
      if (s.op === 'configure' || !answer.ok) return subjectOf(answer, notes)
      session.lastConfig = text
    }
    const after = await lastSeq(target)
    const params = s.op === 'execute' ? withArgOrder(s.params) : s.params
    const answer = await session.adapter.call(s.op, params, parseMs(s.timeout))
    const upTo = await settledSeq(target, after)
    notes.push(`${s.op} ${JSON.stringify(params)} → ${summary(answer)}`)
    const subject = subjectOf(answer, notes)
    if (after !== null && upTo !== null) {
      recordCaused(ctx.scenario, subject, { label: s.op, after, upTo })
      notes.push(`caused journal entries ${after + 1}..${upTo} (${upTo - after})`)
    }
    return subject
  })
}

function subjectOf(answer: AdapterAnswer, notes: string[]): StepSubject {
  if (answer.ok) return { status: 200, body: { ok: true, value: answer.value ?? null }, notes }
  const { error } = answer
  if (error.kind === 'unsupported') return { skipped: `the SDK adapter does not support this${error.message ? `: ${error.message}` : ''}`, notes }
  return { status: error.kind === 'http' ? error.status ?? 599 : 599, body: { ok: false, error }, notes }
}

function summary(answer: AdapterAnswer): string {
  if (answer.ok) return 'ok'
  const e = answer.error
  return `error ${e.kind}${e.status ? ` ${e.status}` : ''}${e.code ? ` ${e.code}` : ''}${e.message ? `: ${e.message.slice(0, 120)}` : ''}`
}

/** Keys of `args` in order, for languages whose JSON maps forget it (Go). */
function withArgOrder(params: Record<string, unknown>): Record<string, unknown> {
  const args = params.args
  if (!args || typeof args !== 'object' || Array.isArray(args) || params.arg_order !== undefined) return params
  return { ...params, arg_order: Object.keys(args) }
}

async function lastSeq(target: Target): Promise<number | null> {
  if (!target.control || !target.capabilities.has('journal')) return null
  return target.control.journalLastSeq()
}

/** The journal's last seq once it stops moving: a dropped or timed-out exchange is recorded when its socket closes. */
async function settledSeq(target: Target, after: number | null): Promise<number | null> {
  if (after === null) return null
  let seq = await lastSeq(target)
  for (let i = 0; i < 5; i++) {
    await sleep(40)
    const next = await lastSeq(target)
    if (next === seq) break
    seq = next
  }
  return seq
}

export type { SdkSession }

registerStepKind({ name: 'sdk', schema: sdkSchema, requires: () => ['sdk'], run: runSdk, label: (s) => [s.op, s.params?.script].filter(Boolean).join(' ') })
registerStepKind({
  name: 'sdk_journal', schema: sdkJournalSchema, requires: () => ['sdk', 'journal'], run: runSdkJournal,
  label: (j) => `${j.of ? `of ${j.of}: ` : ''}${Object.keys(j).filter((k) => k !== 'of' && j[k as keyof typeof j] !== undefined).join(', ')}`,
})
