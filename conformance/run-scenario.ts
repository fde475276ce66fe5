import type { Scenario, Step } from './schema.js'
import type { Exchange, ScenarioResult, StepContext, StepResult, StepSubject, Target, Violation } from './types.js'
import { stepKind, stepKindNames } from './steps/registry.js'
import { render, TemplateError } from './templating.js'
import { checkExpect } from './expect.js'
import { queryPath } from './matchers.js'
import { Secrets } from './secrets.js'
import { parseMs, sleep } from './time.js'

export interface ScenarioRunOptions {
  target: Target
  /** Checks an exchange against the contract (in-process validators, or Prism's header). */
  contract: { validate(exchange: Exchange): Violation[] } | null
  /** `error` (default): a violation fails the step; `warn`: reported only. */
  contractMode: 'error' | 'warn' | 'off'
  env: Record<string, string | undefined>
  runId: string
  secrets: Secrets
  onStep?: (result: StepResult) => void
}

/** Runs one scenario: setup, steps (stopping at the first failure), then teardown, always. */
export async function runScenario(scenario: Scenario, options: ScenarioRunOptions): Promise<ScenarioResult> {
  const started = performance.now()
  const { target } = options
  const missing = scenario.requires.filter((c) => !target.capabilities.has(c))
  const base = { id: scenario.id, file: scenario.file, title: scenario.title, covers: scenario.covers, tags: scenario.tags }
  if (missing.length > 0) {
    return { ...base, outcome: 'skipped', reason: `target lacks capability ${missing.join(', ')}`, steps: [], duration_ms: 0 }
  }
  const runner = new StepRunner(scenario, options, await journalStart(target))
  const main = await runner.runList([...scenario.setup, ...scenario.steps], {}, false)
  const teardown = await runner.runList(scenario.teardown, {}, true)
  const leak = await runner.scanJournal()
  const steps = [...main, ...teardown, ...(leak ? [leak] : [])]
  const failed = steps.find((s) => s.outcome === 'failed')
  // A step the target could not run (capability, credential) makes the scenario skipped, with why.
  const skipped = main.find((s) => s.outcome === 'skipped')
  return {
    ...base,
    outcome: failed ? 'failed' : skipped ? 'skipped' : 'passed',
    reason: failed ? `${failed.label}: ${failed.reason}` : skipped ? `${skipped.label}: ${skipped.reason}` : undefined,
    steps,
    duration_ms: Math.round(performance.now() - started),
  }
}

async function journalStart(target: Target): Promise<number> {
  if (!target.capabilities.has('journal') || !target.control) return 0
  return target.control.journalLastSeq()
}

class StepRunner {
  readonly scope: Record<string, unknown>
  readonly subjects = new Map<string, StepSubject>()
  readonly #own = new Secrets()
  #index = 0
  #failed = false
  /** Set when a step was skipped for a missing capability: later steps depend on it. */
  #skipRest: string | null = null

  constructor(readonly scenario: Scenario, readonly options: ScenarioRunOptions, readonly journalSince: number) {
    const { target } = options
    this.scope = {
      env: options.env,
      run: { id: options.runId },
      world: { keys: target.credentials, base_url: target.baseUrl, api_url: target.apiUrl },
      target: { kind: target.kind, base_url: target.baseUrl, api_url: target.apiUrl },
      captures: {},
      steps: {},
      params: {},
    }
    this.scope.vars = render(scenario.vars, this.scope)
  }

  async runList(steps: Step[], params: Record<string, unknown>, always: boolean): Promise<StepResult[]> {
    const out: StepResult[] = []
    for (const step of steps) {
      const blocked = always ? null : this.#failed ? 'an earlier step failed' : this.#skipRest
      const result = blocked ? this.#skip(step, blocked) : await this.#run(step, params, always)
      if (result.outcome === 'failed') this.#failed = true
      // Later steps build on a skipped one (e.g. a clock advance), so they are skipped too, never failed.
      if (result.outcome === 'skipped' && !blocked && !always) this.#skipRest = `skipped after "${result.label}" (${result.reason})`
      this.options.onStep?.(result)
      out.push(result)
    }
    return out
  }

  #skip(step: Step, reason: string): StepResult {
    return { index: this.#index++, label: labelOf(step), kind: kindOf(step), outcome: 'skipped', reason, attempts: 0, duration_ms: 0, violations: [], notes: [] }
  }

  async #run(step: Step, params: Record<string, unknown>, always = false): Promise<StepResult> {
    const kindName = kindOf(step)
    const kind = stepKind(kindName)!
    const value = step[kindName]
    const missing = [...(step.requires ?? []), ...(kind.requires?.(value as never) ?? [])].filter((c) => !this.options.target.capabilities.has(c))
    if (missing.length > 0) return this.#skip(step, `target lacks capability ${[...new Set(missing)].join(', ')}`)
    const index = this.#index++
    const started = performance.now()
    const result: StepResult = { index, label: labelOf(step), kind: kindName, outcome: 'passed', attempts: 0, duration_ms: 0, violations: [], notes: [] }
    const previousParams = this.scope.params
    this.scope.params = params
    try {
      const subject = await this.#attempts(step, kind.run.bind(kind), value, result)
      this.#finish(step, subject, result, kind.exchange === true)
    } catch (error) {
      // A teardown step that needs a capture from a step that did not run has nothing to undo.
      const nothingToUndo = always && error instanceof TemplateError && (this.#failed || this.#skipRest !== null)
      result.outcome = nothingToUndo ? 'skipped' : 'failed'
      result.reason = error instanceof TemplateError ? error.message : `${(error as Error).name}: ${(error as Error).message}${causeOf(error)}`
    } finally {
      this.scope.params = previousParams
    }
    result.duration_ms = Math.round(performance.now() - started)
    return result
  }

  /** Runs the step once, or until `poll.until` holds, or until `expect` holds (`retry`). */
  async #attempts(step: Step, run: (v: never, ctx: StepContext) => Promise<StepSubject>, value: unknown, result: StepResult): Promise<StepSubject> {
    const max = step.poll?.max ?? (step.retry ? step.retry.count + 1 : 1)
    const every = parseMs(step.poll?.every ?? step.retry?.every ?? 0)
    let subject: StepSubject = {}
    for (let attempt = 1; attempt <= max; attempt++) {
      result.attempts = attempt
      subject = await run(value as never, this.#context())
      if (subject.skipped) return subject
      const done = step.poll ? checkExpect(this.#render(step.poll.until), subject).length === 0 : checkExpect(this.#render(step.expect), subject).length === 0
      if (done || attempt === max) {
        if (step.poll && !done) result.notes.push(`poll: condition not met after ${attempt} attempts`)
        break
      }
      await sleep(every)
    }
    return subject
  }

  #finish(step: Step, subject: StepSubject, result: StepResult, isExchange: boolean): void {
    result.exchange = subject.exchange
    result.notes.push(...(subject.notes ?? []))
    result.children = subject.children
    if (subject.skipped) {
      result.outcome = 'skipped'
      result.reason = subject.skipped
      return
    }
    const failures: string[] = []
    const expect = this.#render(step.expect)
    const mode = expect?.contract ?? this.options.contractMode
    if (isExchange && subject.exchange && this.options.contract && mode !== 'off') {
      result.violations = this.options.contract.validate(subject.exchange).map((v) => ({ ...v, severity: mode === 'error' ? v.severity : 'warn' }))
      const errors = result.violations.filter((v) => v.severity === 'error')
      if (errors.length) failures.push(`contract: ${errors.map((v) => `${v.location} ${v.message}`).join('; ')}`)
    }
    const leaked = this.#own.leakIn(responseText(subject))
    if (leaked) failures.push(`secret \`${leaked}\` appeared again in this response (KEY-02)`)
    if (step.poll && checkExpect(this.#render(step.poll.until), subject).length > 0) failures.push(`poll: condition not met after ${result.attempts} attempts`)
    const diff = checkExpect(expect, subject)
    if (!isExchange && expect?.status === undefined && (subject.status ?? 200) >= 400) {
      diff.unshift({ path: 'status', expected: '2xx', given: subject.status })
    }
    if (diff.length) {
      result.diff = diff
      failures.push(diff.map((d) => `${d.path}: expected ${short(d.expected)}, got ${short(d.given)}`).join('; '))
    }
    if (subject.children?.some((c) => c.outcome === 'failed')) failures.push('an included step failed')
    this.#capture(step, subject, failures)
    if (failures.length) {
      result.outcome = 'failed'
      result.reason = failures.join(' | ')
    }
  }

  #capture(step: Step, subject: StepSubject, failures: string[]): void {
    const captured: Record<string, unknown> = {}
    for (const [name, spec] of Object.entries(step.capture ?? {})) {
      const value = typeof spec === 'string' ? queryPath(subject.body, spec)
        : 'header' in spec ? subject.headers?.[spec.header.toLowerCase()] : queryPath(subject.body, spec.jsonpath)
      // A failed capture stays unset, so a teardown step that needs it is skipped, not run with a hole.
      if (value === undefined) failures.push(`capture \`${name}\`: nothing at ${JSON.stringify(spec)}`)
      else captured[name] = value
    }
    for (const name of step.secret ?? []) {
      this.#own.add(name, captured[name])
      this.options.secrets.add(name, captured[name])
    }
    Object.assign(this.scope.captures as object, captured)
    if (step.id) {
      ;(this.scope.steps as Record<string, unknown>)[step.id] = { ...captured, status: subject.status, headers: subject.headers, body: subject.body }
      this.scope[step.id] = (this.scope.steps as Record<string, unknown>)[step.id]
      this.subjects.set(step.id, subject)
    }
  }

  /** After the scenario: a captured secret must not be in any journal entry (KEY-02). */
  async scanJournal(): Promise<StepResult | null> {
    const { target } = this.options
    if (!target.capabilities.has('journal') || !target.control || this.#own.size === 0) return null
    const entries = await target.control.journal({ since: this.journalSince, limit: 10_000 })
    const leaked = this.#own.leakIn(JSON.stringify(entries))
    if (!leaked) return null
    return { index: this.#index++, label: 'secret scan of the journal', kind: 'journal', outcome: 'failed', reason: `secret \`${leaked}\` appears in the request journal (KEY-02)`, attempts: 1, duration_ms: 0, violations: [], notes: [] }
  }

  #render<T>(value: T): T {
    return render(value, this.scope)
  }

  #context(): StepContext {
    return {
      target: this.options.target,
      render: (v) => this.#render(v),
      subjects: this.subjects,
      runSteps: (steps, params) => this.runList(steps, params, false),
      scenario: this.scenario,
      journalSince: this.journalSince,
    }
  }
}

export function kindOf(step: Step): string {
  return stepKindNames().find((k) => step[k] !== undefined) ?? 'unknown'
}

function labelOf(step: Step): string {
  if (step.name) return step.name
  const kind = kindOf(step)
  const value = step[kind] as Record<string, unknown> | string
  let summary = ''
  const custom = stepKind(kind)?.label
  if (kind === 'request' && typeof value === 'object') summary = `${String(value.method ?? 'GET').toUpperCase()} ${value.path ?? value.url}`
  else if (custom) summary = custom(value)
  else if (typeof value === 'object' && value) summary = Object.keys(value).filter((k) => value[k] !== undefined).join(', ')
  else summary = String(value)
  return `${step.id ? `${step.id}: ` : ''}${kind} ${summary}`.trim()
}

function responseText(subject: StepSubject): string {
  return subject.exchange?.response.text ?? JSON.stringify(subject.body ?? null)
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined'
  return text.length > 160 ? `${text.slice(0, 157)}…` : text
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause
  return cause instanceof Error ? ` (${cause.message})` : ''
}

export type { Exchange }
