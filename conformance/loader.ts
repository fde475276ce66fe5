import { readFile, readdir, stat } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { YamlLoadError, parseYaml } from '../src/support/yaml-schema.js'
import type { YamlProblem } from '../src/support/yaml-schema.js'
import type { Scenario } from './schema.js'
import { fragmentSchema, scenarioSchema } from './schema.js'
import { vocabulary } from './vocabulary.js'
import { closest } from '../src/support/did-you-mean.js'
import { checkReferences } from './references.js'
import type { Problem } from './references.js'
import { LineCounter, parseDocument } from 'yaml'
import './steps/builtin.js'

/** A scenario file that could not be loaded; problems carry file:line:column and a hint. */
export class ScenarioLoadError extends Error {
  readonly problems: string[]
  constructor(problems: string[]) {
    super(problems.join('\n'))
    this.name = 'ScenarioLoadError'
    this.problems = problems
  }
}

/** Scenario files under `paths` (files or folders); folders starting with `_` hold fragments. */
async function discover(paths: string[]): Promise<string[]> {
  const out: string[] = []
  async function walk(path: string, explicit: boolean): Promise<void> {
    const info = await stat(path).catch(() => null)
    if (!info) throw new ScenarioLoadError([`${path}: no such file or folder`])
    if (info.isFile()) {
      if (explicit || /\.ya?ml$/.test(path)) out.push(path)
      return
    }
    for (const entry of (await readdir(path, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('_') || entry.name.startsWith('.')) continue
      await walk(join(path, entry.name), false)
    }
  }
  for (const p of paths) await walk(p, true)
  return [...new Set(out)]
}

/** Loads and validates every scenario; all problems of all files are reported together. */
export async function loadScenarios(paths: string[], cwd = process.cwd()): Promise<Scenario[]> {
  const files = await discover(paths)
  const problems: string[] = []
  const scenarios: Scenario[] = []
  // Built once per run, not per file (step kinds may register until the first load).
  const schema = scenarioSchema()
  for (const file of files) {
    try {
      const { scenario, text } = await loadScenario(file, cwd, schema)
      scenarios.push(scenario)
      const found = await checkReferences(scenario, (path) => loadFragment(path, scenario.file))
      problems.push(...found.map((p) => locate(scenario.file, text, p)))
    } catch (error) {
      problems.push(...describeLoadError(error, file))
    }
  }
  const seen = new Map<string, string>()
  for (const s of scenarios) {
    const other = seen.get(s.id)
    if (other) problems.push(`${s.file}: duplicate scenario id \`${s.id}\` (also in ${other})`)
    seen.set(s.id, s.file)
  }
  if (problems.length > 0) throw new ScenarioLoadError(problems)
  return scenarios
}

async function loadScenario(file: string, cwd: string, schema: ReturnType<typeof scenarioSchema>): Promise<{ scenario: Scenario; text: string }> {
  const text = await readFile(file, 'utf8')
  const name = relative(cwd, resolve(file)) || file
  const scenario = parseYaml(text, name, schema)
  return { scenario: { ...scenario, world: worldBeside(scenario.world, file), file: name }, text }
}

/**
 * A world given as a relative path (`./world.yaml`, as `adops-sandbox record` writes) is the file
 * beside the scenario when one is there; otherwise it stays a path from the working directory.
 */
function worldBeside(world: string, file: string): string {
  if (!/[/\\]|\.ya?ml$/.test(world) || isAbsolute(world)) return world
  const beside = resolve(dirname(file), world)
  return existsSync(beside) ? beside : world
}

/** `file:line:column path: message` for a reference problem (the nearest node that exists). */
function locate(file: string, text: string, problem: Problem): string {
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter })
  let offset = 0
  for (let depth = problem.path.length; depth > 0; depth--) {
    const node = doc.getIn(problem.path.slice(0, depth), true) as { range?: [number, number, number] } | undefined
    if (node && typeof node === 'object' && node.range) {
      offset = node.range[0]
      break
    }
  }
  const { line, col } = lineCounter.linePos(offset)
  const path = problem.path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('')
  return `${file}:${line}:${col} ${path}${problem.inside ? ` (in ${problem.inside})` : ''}: ${problem.message}`
}

/** A parsed `include` fragment. */
export type Fragment = ReturnType<ReturnType<typeof fragmentSchema>['parse']>

const fragments = new Map<string, Fragment>()

/** An `include` fragment, resolved relative to the including scenario; cached per run. */
export async function loadFragment(path: string, from: string): Promise<Fragment> {
  const file = resolve(dirname(from), path)
  const cached = fragments.get(file)
  if (cached) return cached
  const fragment = parseYaml(await readFile(file, 'utf8'), relative(process.cwd(), file), fragmentSchema())
  fragments.set(file, fragment)
  return fragment
}

function describeLoadError(error: unknown, file: string): string[] {
  // A YAML syntax error cascades into dozens of follow-ups; the first one is the one to fix.
  if (error instanceof YamlLoadError && error.problems.every((p) => !p.path)) return [format(error.file, error.problems[0])]
  if (error instanceof YamlLoadError) return error.problems.map((p) => `${error.file}:${p.line}:${p.column} ${p.path ? `${p.path}: ` : ''}${p.message}${hint(p)}`)
  return [`${file}: ${(error as Error).message}`]
}

function format(file: string, p: YamlProblem): string {
  return `${file}:${p.line}:${p.column} ${p.message} (YAML syntax; quote values that contain \`: \`, \`[\`, \`{\` or \`#\`)`
}

function hint(problem: YamlProblem): string {
  const unknown = /^unknown keys? `([^`]+)`/.exec(problem.message)
  if (!unknown) return ''
  const known = vocabulary()
  // A key the scenario takes at another level (`name` at the top) is not a typo: "did you mean `name`?" would mislead.
  if (known.includes(unknown[1])) return ` (hint: \`${unknown[1]}\` is a key at another level of a scenario, not here; see docs/scenarios.md)`
  const best = closest(unknown[1], known)
  return best ? ` (hint: did you mean \`${best}\`?)` : ' (hint: see docs/scenarios.md for the keys a scenario takes)'
}
