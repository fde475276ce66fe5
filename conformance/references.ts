import { existsSync, readdirSync } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import type { Scenario, Step } from './schema.js'
import { CAPABILITIES } from './types.js'
import { stepKind, stepKindNames } from './steps/registry.js'
import { shippedRules } from './coverage.js'
import { suggestion } from '../src/support/did-you-mean.js'
import { worldKeyNames, worldNames } from './worlds.js'
import { templateRefs } from './template-refs.js'
import type { Fragment } from './loader.js'

let rules: string[] | undefined

/** Where a problem is: `path` into the scenario file; `inside` names a fragment's own step. */
export type Problem = { path: Array<string | number>; message: string; inside?: string }

/** Capabilities a target may lack: the control plane's, and `sdk` in SDK mode. */
export const KNOWN_CAPABILITIES: readonly string[] = [...CAPABILITIES, 'sdk']

/** Template namespaces (`${{ vars.x }}`) besides step ids. */
const NAMESPACES = ['env', 'run', 'world', 'target', 'captures', 'steps', 'params', 'vars']
const SUBJECT = ['status', 'headers', 'body']
const CREDENTIAL = /^[a-z][a-z0-9_]*$/

interface Scope {
  credentials: string[] | null
  /** Every step id of the scenario, to tell "runs later" from "does not exist". */
  allIds: Set<string>
  ids: Map<string, Set<string>>
  captures: Set<string>
  /** Capabilities declared by the scenario, the step or the including fragment. */
  declared: Set<string>
  params: Record<string, unknown> | null
}

/**
 * Every name a scenario refers to, checked before anything runs (issue 15): rule ids in `covers`,
 * the world, capabilities in `requires`, credentials (`auth`), step ids and captures used in
 * templates before a step sets them, `vars`, include fragments and their parameters, and that each
 * step's capability is declared in a `requires` (the only reason a scenario may skip).
 */
export async function checkReferences(scenario: Scenario, loadFragment: (file: string) => Promise<Fragment>): Promise<Problem[]> {
  const problems: Problem[] = []
  const known = (rules ??= shippedRules().map((r) => r.id))
  scenario.covers.forEach((id, i) => {
    if (!known.includes(id)) problems.push({ path: ['covers', i], message: `unknown rule id \`${id}\` (conformance/rule-ids.txt)${suggestion(id, known, 'e.g.')}` })
  })
  const credentials = worldKeyNames(scenario.world)
  if (credentials === null) problems.push({ path: ['world'], message: `unknown world \`${scenario.world}\`${suggestion(scenario.world, worldNames(), 'worlds')}` })
  checkCapabilities(scenario.requires, ['requires'], problems)
  const allIds = new Set([...scenario.setup, ...scenario.steps, ...scenario.teardown].map((s) => s.id).filter((id): id is string => id !== undefined))
  const scope: Scope = { credentials, allIds, ids: new Map(), captures: new Set(), declared: new Set(scenario.requires), params: null }
  for (const section of ['setup', 'steps', 'teardown'] as const) {
    for (const [i, step] of scenario[section].entries()) await checkStep(step, { at: [section, i], scope, scenario, problems, loadFragment })
  }
  return problems
}

interface StepCheck {
  at: Array<string | number>
  scope: Scope
  scenario: Scenario
  problems: Problem[]
  loadFragment: (file: string) => Promise<Fragment>
  inside?: string
}

async function checkStep(step: Step, check: StepCheck): Promise<void> {
  const { at, scope, problems, inside } = check
  const report = (path: Array<string | number>, message: string) => problems.push({ path: [...at, ...path], message, ...(inside ? { inside } : {}) })
  const kind = stepKindNames().find((k) => step[k] !== undefined) ?? ''
  const value = step[kind]
  checkCapabilities(step.requires ?? [], [...at, 'requires'], problems)
  const declared = new Set([...scope.declared, ...(step.requires ?? [])])
  const undeclared = (stepKind(kind)?.requires?.(value as never) ?? []).filter((c) => !declared.has(c))
  if (undeclared.length) report([kind], `this \`${kind}\` step needs capability ${undeclared.map((c) => `\`${c}\``).join(', ')}: declare \`requires: [${undeclared.join(', ')}]\` on the scenario (or this step), so a target without it skips with that reason`)
  for (const [path, name] of credentialsOf(kind, value, scope.params)) {
    // An unknown world is reported once; its credentials are unknown, not wrong.
    if (scope.credentials !== null && !scope.credentials.includes(name)) report(path, `unknown credential \`${name}\` (world \`${check.scenario.world}\`)${suggestion(name, scope.credentials, 'credentials')}`)
  }
  for (const { path, head, next } of templateRefs(step)) {
    if (path[0] === 'capture') continue
    const problem = unknownReference(head, next, scope, check.scenario)
    if (problem) report(path, problem)
  }
  if (kind === 'control') switchWorld(value as Record<string, unknown>, scope, report)
  if (kind === 'include') await checkInclude(value as Step['include'], { ...check, declared }, report)
  const names = Object.keys(step.capture ?? {})
  names.forEach((n) => scope.captures.add(n))
  if (step.id) scope.ids.set(step.id, new Set(names))
}

function checkCapabilities(requires: string[], at: Array<string | number>, problems: Problem[]): void {
  requires.forEach((c, i) => {
    if (!KNOWN_CAPABILITIES.includes(c)) problems.push({ path: [...at, i], message: `unknown capability \`${c}\`${suggestion(c, [...KNOWN_CAPABILITIES], 'capabilities')}` })
  })
}

/** Literal credential names in `auth` (request, mcp, sdk); key values and templates are left alone. */
function credentialsOf(kind: string, value: unknown, params: Record<string, unknown> | null): Array<[Array<string | number>, string]> {
  if (!['request', 'mcp', 'sdk'].includes(kind) || !value || typeof value !== 'object') return []
  const auth = (value as { auth?: unknown }).auth
  const entries: Array<[Array<string | number>, unknown]> = typeof auth === 'string' ? [[[kind, 'auth'], auth]]
    : auth && typeof auth === 'object' ? ['bearer', 'service_key', 'api_key'].map((k) => [[kind, 'auth', k], (auth as Record<string, unknown>)[k]])
      : []
  const out: Array<[Array<string | number>, string]> = []
  for (const [path, raw] of entries) {
    // Inside a fragment, `auth: ${{ params.parent }}` names the credential its parameter holds.
    const param = typeof raw === 'string' && params ? /^\$\{\{\s*params\.(\w+)\s*\}\}$/.exec(raw) : null
    const name = param ? params![param[1]] : raw
    if (typeof name === 'string' && name !== 'none' && CREDENTIAL.test(name)) out.push([path, name])
  }
  return out
}

function unknownReference(head: string, next: string | undefined, scope: Scope, scenario: Scenario): string | null {
  if (['env', 'run', 'target', 'world'].includes(head)) return null
  if (head === 'vars') return next === undefined || next in scenario.vars ? null : `\`vars.${next}\` is not defined${suggestion(next, Object.keys(scenario.vars), 'vars')}`
  if (head === 'params') return scope.params === null ? '`params` exist only inside an include fragment' : next === undefined || next in scope.params ? null : `\`params.${next}\` is not a parameter of this fragment${suggestion(next, Object.keys(scope.params), 'params')}`
  if (head === 'captures') return next === undefined || scope.captures.has(next) ? null : `capture \`${next}\` is used before any step sets it${suggestion(next, [...scope.captures], 'captured so far')}`
  if (head === 'steps') return next === undefined || scope.ids.has(next) ? null : `step \`${next}\` is used before it runs${suggestion(next, [...scope.ids.keys()], 'earlier steps')}`
  const captured = scope.ids.get(head)
  if (!captured && scope.allIds.has(head)) return `\`${head}\` is used before step \`${head}\` runs (it comes later)`
  if (!captured) return `\`${head}\` is used before any step sets it: no earlier step has \`id: ${head}\`${suggestion(head, [...scope.ids.keys(), ...NAMESPACES], 'earlier steps and namespaces')}`
  if (next === undefined || captured.has(next) || SUBJECT.includes(next)) return null
  return `step \`${head}\` captures no \`${next}\`${suggestion(next, [...captured, ...SUBJECT], 'it has')}`
}

/** A `control` reset loads another world: its keys become the credentials of later steps. */
function switchWorld(value: Record<string, unknown>, scope: Scope, report: (path: Array<string | number>, message: string) => void): void {
  const reset = value.reset as { world?: string } | true | undefined
  const world = (value.world as string | undefined) ?? (reset && reset !== true ? reset.world : undefined)
  if (world === undefined || world.includes('${{')) return
  const keys = worldKeyNames(world)
  if (keys === null) report(['control', value.world !== undefined ? 'world' : 'reset'], `unknown world \`${world}\`${suggestion(world, worldNames(), 'worlds')}`)
  else scope.credentials = keys
}

async function checkInclude(spec: Step['include'], check: StepCheck & { declared: Set<string> }, report: (path: Array<string | number>, message: string) => void): Promise<void> {
  const { file, with: given = {} } = typeof spec === 'string' ? { file: spec } : (spec as { file: string; with?: Record<string, unknown> })
  const path = resolve(dirname(check.scenario.file), file)
  if (!existsSync(path)) {
    const siblings = existsSync(dirname(path)) ? readdirSync(dirname(path)).filter((f) => /\.ya?ml$/.test(f)) : []
    return void report(['include'], `no fragment file \`${file}\` (looked for ${path})${suggestion(basename(path), siblings, 'fragments there')}`)
  }
  const fragment = await check.loadFragment(path)
  for (const name of Object.keys(given).filter((k) => !(k in fragment.params))) {
    report(['include', 'with', name], `${file} takes no parameter \`${name}\`${suggestion(name, Object.keys(fragment.params), 'it takes')}`)
  }
  const { scope } = check
  const undeclared = fragment.requires.filter((c) => !check.declared.has(c))
  if (undeclared.length) report(['include'], `${file} requires ${undeclared.map((c) => `\`${c}\``).join(', ')}: declare \`requires: [${undeclared.join(', ')}]\` on the scenario (or this step)`)
  const inner: Scope = { ...scope, declared: new Set([...check.declared, ...fragment.requires]), params: { ...fragment.params, ...given } }
  for (const [j, step] of fragment.steps.entries()) await checkStep(step, { ...check, scope: inner, inside: `${file} steps[${j}]` })
  // Captures and step ids set inside the fragment are visible to the scenario's later steps.
  scope.credentials = inner.credentials
}
