import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Task } from './task-schema.js'
import { TaskLoadError, loadTasks } from './task-schema.js'
import { rehearseTask } from './run-task.js'
import type { TaskResult } from './run-task.js'
import { REPORTER_KINDS, summarize, ttyLines, ttySummary, writeReport } from './report.js'
import type { RehearsalReport, RunResult, TrialSeries } from './report.js'
import { parseShard, pickShard } from './shard.js'
import { inParallel } from '../support/pool.js'

/** Exit codes of `adops-sandbox rehearse`, as `conform`: 0 all passed, 1 a task failed, 2 usage or load error. */
export const REHEARSE_EXIT = { passed: 0, failed: 1, usage: 2 } as const

// The shipped tasks, from `src/rehearse/` under tsx and from `dist/src/rehearse/` when built.
const here = fileURLToPath(new URL('.', import.meta.url))

/** The folder of shipped hand-written tasks (`rehearsals/tasks` in the package). */
export function shippedTasksDir(): string {
  const dirs = [resolve(here, '../../rehearsals/tasks'), resolve(here, '../../../rehearsals/tasks')]
  return dirs.find((d) => existsSync(d)) ?? dirs[0]
}

/**
 * What runs when no path is given: the hand-written tasks and the suite beside them
 * (`rehearsals/suite`: more benign tasks, the matrix bases and the injection matrix).
 */
export function shippedTaskPaths(): string[] {
  const tasks = shippedTasksDir()
  return [tasks, resolve(tasks, '../suite')].filter((d, i) => i === 0 || existsSync(d))
}

export interface RehearseOptions {
  agent?: string
  reporter?: string[]
  grep?: string
  /** `i/n`: rehearse only shard i of n (split by name order; merge the JSON reports after). */
  shard?: string
  /** Trials per task (default 1): k on the same seed and k on new seeds (trial 1 shared); each series reported with pass^k, the mean and 95 % intervals. */
  trials?: number
  /** Tasks rehearsed at once, each on its own sandbox (default 1). */
  jobs?: number
  /** Names of the operator's environment variables the agent also gets (`--agent-env NAME`); it has only PATH, HOME, LANG, TMPDIR and its own otherwise. */
  agentEnv?: string[]
  /** Where output goes (the CLI passes process streams; tests collect it). */
  out?: (line: string) => void
  err?: (line: string) => void
}

/** Runs every task under `paths` with the agent, one at a time, and renders the reports. */
export async function runRehearsal(paths: string[], options: RehearseOptions): Promise<{ exitCode: number; report: RehearsalReport | null }> {
  const out = options.out ?? ((line) => process.stdout.write(`${line}\n`))
  const err = options.err ?? ((line) => process.stderr.write(`${line}\n`))
  const usage = (message: string) => { err(`rehearse: ${message}`); return { exitCode: REHEARSE_EXIT.usage, report: null } }
  if (!options.agent) return usage('--agent "<command>" is required (the agent to rehearse, run in a shell)')
  const bad = (options.reporter ?? []).find((r) => !(REPORTER_KINDS as readonly string[]).includes(r.split(':')[0]))
  if (bad) return usage(`unknown reporter \`${bad}\`; reporters are ${REPORTER_KINDS.join(', ')} (optionally :file)`)
  let tasks: Task[]
  try {
    tasks = await loadTasks(paths.length > 0 ? paths : shippedTaskPaths())
  } catch (error) {
    if (error instanceof TaskLoadError) return usage(`task files have problems:\n${error.problems.join('\n')}`)
    throw error
  }
  if (options.grep) {
    const pattern = new RegExp(options.grep)
    tasks = tasks.filter((t) => pattern.test(t.name))
    if (tasks.length === 0) return usage(`no task matches --grep ${options.grep}`)
  }
  if (options.shard) {
    const shard = parseShard(options.shard)
    if (typeof shard === 'string') return usage(shard)
    tasks = pickShard(tasks, shard)
  }
  const startedAt = new Date().toISOString()
  const agent = options.agent
  const trials = options.trials ?? 1
  if (!Number.isInteger(trials) || trials < 1) return usage(`--trials must be a whole number of at least 1 (got ${options.trials})`)
  const runs = tasks.flatMap((task) => trialPlan(trials).map((plan) => ({ task, ...plan })))
  const results = await inParallel(runs, options.jobs ?? 1, async ({ task, trial, seed, series }) => {
    const result = await rehearseTask(task, { agent, seed, agentEnv: options.agentEnv }).catch((error: Error) => ({ ...unrunnable(task, error), ...(seed === undefined ? {} : { seed }) }))
    const numbered: RunResult = { ...result, ...(trial ? { trial, series } : {}), ...caseOf(task) }
    ttyLines(numbered).forEach(out)
    return numbered
  })
  return render(summarize(agent, startedAt, results), options.reporter ?? [], out)
}

/** The summary line and the file reports of a finished (or merged) rehearsal, and its exit code. */
export async function render(report: RehearsalReport, reporters: string[], out: (line: string) => void): Promise<{ exitCode: number; report: RehearsalReport }> {
  out(ttySummary(report))
  for (const spec of reporters) await writeReport(spec, report, (text) => out(text.trimEnd()))
  return { exitCode: report.summary.failed === 0 ? REHEARSE_EXIT.passed : REHEARSE_EXIT.failed, report }
}


/**
 * The world seed of a new-seed trial: the first (or only) run keeps the world's own seed, so a
 * single run matches what `serve` shows; trial i > 1 gets a seed of its own (the same for every task
 * and every run of the CLI, so a failing trial can be reproduced). Tasks must therefore be seed-independent.
 */
export function trialSeed(trial: number | undefined): number | undefined {
  return trial === undefined || trial === 1 ? undefined : 7919 * trial
}

/**
 * The runs of one task under `--trials k` (issue 34 item 7): trial 1 on the world's own seed counts
 * in both series; then k − 1 more on new seeds (world variation, `trialSeed`) and k − 1 more on the
 * same seed (the agent's own variation). 2k − 1 runs; one plain run when k is 1.
 */
export function trialPlan(trials: number): Array<{ trial?: number; seed?: number; series?: TrialSeries[] }> {
  if (trials <= 1) return [{}]
  const rest = Array.from({ length: trials - 1 }, (_, i) => i + 2)
  return [
    { trial: 1, seed: undefined, series: ['same-seed', 'new-seed'] },
    ...rest.map((trial) => ({ trial, seed: trialSeed(trial), series: ['new-seed'] as TrialSeries[] })),
    ...rest.map((trial) => ({ trial, seed: undefined, series: ['same-seed'] as TrialSeries[] })),
  ]
}

// What a result carries of its task for the metrics: security case or benign, its twin and label.
function caseOf(task: Task): Pick<RunResult, 'injected' | 'twin' | 'attack'> {
  return { injected: task.injection !== undefined, ...(task.twin ? { twin: task.twin } : {}), ...(task.attack ? { attack: task.attack } : {}) }
}

// A task whose setup the sandbox refused (say, a malformed fault) fails with the sandbox's answer.
function unrunnable(task: Task, error: Error): TaskResult {
  return {
    task: task.name, file: task.file, passed: false, reasons: [`could not run: ${error.message}`], checks: [], findings: [], reviews: [], transcript: [],
    efficiency: { calls: 0, credits: 0, sandbox_seconds: 0, wall_ms: 0 },
    agent: { code: null, signal: null, stopped: null, stdout: '', stderr: '' },
  }
}
