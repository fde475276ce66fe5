import { readFile, readdir, stat } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { z } from 'zod'
import { YamlLoadError, parseYaml } from '../support/yaml-schema.js'
import { FINDING_IDS, SEVERITIES } from './findings.js'
import { budgetExpectation, campaignSelector, statusExpectation } from './selectors.js'
import { injectionSchema } from './injection.js'
import type { Matrix } from './task-matrix.js'
import { expandMatrix, matrixSchema } from './task-matrix.js'

const bucket = z.strictObject({ capacity: z.number().int().positive(), refill_per_second: z.number().positive() })

const campaignCheck = z.strictObject({
  /** A name from `campaigns`. */
  campaign: z.string().min(1),
  /** A status, or `unchanged` (as at the start). */
  status: statusExpectation.optional(),
  /** A daily budget, `unchanged`, or `{times: f}` (the starting budget × f): seed-independent checks. */
  daily_budget: budgetExpectation.optional(),
})

/** The number of active connections in the agent's workspace after the run. */
const connectionsCheck = z.strictObject({ connections: z.number().int().nonnegative() })

const check = z.union([campaignCheck, connectionsCheck])

const finding = z.enum(FINDING_IDS)

/** A rehearsal task file (docs/rehearsal.md "Task format"). */
export const taskSchema = z.strictObject({
  name: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be kebab-case'),
  description: z.string().optional(),
  /** The goal given to the agent (stdin and `REHEARSAL_GOAL`); `{target.id}` and `{target.name}` are filled in. */
  goal: z.string().min(1),
  /** A shipped world's name, or a world file's path relative to the task file. */
  world: z.string().min(1).default('default'),
  /** Workspace the agent's key is pinned to; default the world's first. */
  workspace: z.string().optional(),
  setup: z.strictObject({
    /** Workspace policy fields (the rest take the default), as `PUT /_sandbox/workspaces/{id}/policy`. */
    policy: z.record(z.string(), z.unknown()).optional(),
    credits: z.strictObject({ balance: z.number().nonnegative().optional(), payment_method: z.boolean().optional() }).optional(),
    rate_limits: z.strictObject({ per_key: bucket.nullable().optional(), per_workspace: bucket.nullable().optional() }).optional(),
    /** Sandbox time when the agent starts (ISO instant), e.g. a Saturday for operating hours. */
    clock: z.iso.datetime({ offset: true }).optional(),
    /** Scripted faults, each as `POST /_sandbox/faults` takes it (validated by the sandbox when the task starts). */
    faults: z.array(z.record(z.string(), z.unknown())).default([]),
  }).default({ faults: [] }),
  limits: z.strictObject({
    /** Real-time seconds before the agent is stopped. */
    seconds: z.number().positive().max(600).default(30),
    /** Requests the agent may make. */
    calls: z.number().int().positive().default(100),
    /** Sandbox minutes (the reviewer's clock advances count) before the agent is stopped. */
    sandbox_minutes: z.number().positive().optional(),
    /** Credits the agent may spend (a finding when exceeded). */
    credits: z.number().nonnegative().optional(),
  }).default({ seconds: 30, calls: 100 }),
  /** The simulated reviewer of held writes. */
  reviewer: z.strictObject({
    /** `expire`: never answers, but lets the sandbox clock run past the review's expiry. */
    answer: z.enum(['approve', 'reject', 'never', 'expire']).default('approve'),
    /** Sandbox minutes the reviewer takes (the clock is advanced by this much before answering). */
    within_minutes: z.number().nonnegative().default(0),
    /** Budget raises to more than this daily budget are rejected whatever `answer` says. */
    reject_budget_over: z.number().nonnegative().optional(),
    /** The reviewer is also the workspace owner: opens the connect links e-mailed to them (after `within_minutes`). */
    open_links: z.boolean().default(false),
    /** A note the reviewer leaves on each held write it answers (`review.comment`); the `review-note` injection site. */
    comment: z.string().min(1).max(1000).optional(),
  }).default({ answer: 'approve', within_minutes: 0, open_links: false }),
  /** Campaigns the task is about, by name; the agent may write only these. */
  campaigns: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/), campaignSelector).default({}),
  /** State checks after the run (the goal). */
  checks: z.array(check).default([]),
  /** Instructions planted in world data and the intents following them means (`followed-injection`; src/rehearse/injection.ts). */
  injection: injectionSchema.optional(),
  /** A security case's benign twin: the task's name without the injection (metrics pair them; docs/rehearsal.md "Metrics"). */
  twin: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be kebab-case').optional(),
  /** A security case's injection family and site (a matrix sets them; hand-written cases may too). */
  attack: z.strictObject({ family: z.string().min(1), site: z.string().min(1), matrix: z.string().optional() }).optional(),
  /** Findings that must appear (a task that wants to see a refusal handled). */
  require: z.array(finding).default([]),
  /** Findings tolerated; every other finding fails the task. */
  allow: z.array(finding).default([]),
  /** Weight per finding id in the task's score (default 1 each; docs/rehearsal.md "Weights"). */
  weights: z.partialRecord(finding, z.number().nonnegative()).default({}),
  /** Severity per finding id, overriding the default (docs/rehearsal.md "Findings"): critical and high fail the task even when allowed. */
  severity: z.partialRecord(finding, z.enum(SEVERITIES)).default({}),
})

export type Task = z.output<typeof taskSchema> & { file: string }

/** A task set that could not be loaded; one `file:line:col message` per problem. */
export class TaskLoadError extends Error {
  readonly problems: string[]
  constructor(problems: string[]) {
    super(problems.join('\n'))
    this.name = 'TaskLoadError'
    this.problems = problems
  }
}

/**
 * Loads every task under `paths` (files or folders of `*.yaml`); a matrix file (`matrix:` at the top)
 * adds its bases and its generated cases (src/rehearse/task-matrix.ts). All problems are reported
 * together. A base that is also in a loaded folder is loaded once.
 */
export async function loadTasks(paths: string[], cwd = process.cwd()): Promise<Task[]> {
  const problems: string[] = []
  const tasks: Task[] = []
  for (const file of await discover(paths, problems)) {
    const text = await readFile(file, 'utf8')
    if (/^matrix:/m.test(text)) tasks.push(...(await loadMatrix(file, text, cwd, problems)))
    else tasks.push(...parseTask(file, text, cwd, problems))
  }
  const seen = new Map<string, string>()
  const unique: Task[] = []
  for (const t of tasks) {
    const other = seen.get(t.name)
    // The same file read twice (a matrix's base that its folder holds too) is one task.
    if (other === t.file) continue
    if (other !== undefined) problems.push(`${t.file}: duplicate task name \`${t.name}\` (also in ${other})`)
    seen.set(t.name, t.file)
    unique.push(t)
  }
  if (problems.length > 0) throw new TaskLoadError(problems)
  if (unique.length === 0) throw new TaskLoadError([`no task files under ${paths.join(', ')}`])
  return unique
}

// One task file: the task, or none with its problems recorded.
function parseTask(file: string, text: string, cwd: string, problems: string[]): Task[] {
  const name = relative(cwd, resolve(file)) || file
  try {
    const parsed = parseYaml(text, name, taskSchema)
    // A world given as a path is found next to the task file, wherever the run starts.
    const world = /[/\\]|\.ya?ml$/.test(parsed.world) ? resolve(dirname(file), parsed.world) : parsed.world
    const task = { ...parsed, world, file: name }
    problems.push(...unknownCampaigns(task))
    return [task]
  } catch (error) {
    if (error instanceof YamlLoadError) problems.push(...error.message.split('\n'))
    else throw error
    return []
  }
}

// A matrix file: its bases (benign twins) and one case per base × family × site.
async function loadMatrix(file: string, text: string, cwd: string, problems: string[]): Promise<Task[]> {
  const name = relative(cwd, resolve(file)) || file
  let matrix: Matrix
  try {
    matrix = parseYaml(text, name, matrixSchema).matrix
  } catch (error) {
    if (error instanceof YamlLoadError) problems.push(...error.message.split('\n'))
    else throw error
    return []
  }
  const bases: Task[] = []
  for (const base of matrix.bases) {
    const path = resolve(dirname(file), base)
    const baseText = await readFile(path, 'utf8').catch(() => null)
    if (baseText === null) problems.push(`${name}: matrix.bases: ${base}: no such file`)
    else bases.push(...parseTask(path, baseText, cwd, problems))
  }
  const { cases, problems: found } = expandMatrix(matrix, bases, name)
  problems.push(...found)
  return [...bases, ...cases]
}

// A check naming a campaign the task does not define.
function unknownCampaigns(task: Task): string[] {
  return task.checks
    .filter((c): c is z.output<typeof campaignCheck> => 'campaign' in c && !(c.campaign in task.campaigns))
    .map((c) => `${task.file}: checks: campaign \`${c.campaign}\` is not defined under \`campaigns\` (defined: ${Object.keys(task.campaigns).join(', ') || 'none'})`)
}

async function discover(paths: string[], problems: string[]): Promise<string[]> {
  const out: string[] = []
  for (const path of paths) {
    const info = await stat(path).catch(() => null)
    if (!info) problems.push(`${path}: no such file or folder`)
    else if (info.isFile()) out.push(path)
    else {
      const names = (await readdir(path)).filter((n) => /\.ya?ml$/.test(n) && !n.startsWith('_')).sort()
      out.push(...names.map((n) => join(path, n)))
    }
  }
  return [...new Set(out)]
}
