import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import pc from 'picocolors'
import { htmlScorecard } from './html-report.js'
import type { Rate, RunResult, Severity, SeriesReliability, TrialSeries } from './metrics.js'
import { seriesReliability } from './metrics.js'
import type { SecurityMetrics } from './security-metrics.js'
import { findingsBySeverity, securityMetrics } from './security-metrics.js'

export type { RunResult, TrialSeries }

/** A whole rehearsal: the agent command, each task's result and the totals. */
export interface RehearsalReport {
  agent: string
  started_at: string
  tasks: RunResult[]
  summary: {
    /** Runs (task × trial) that passed and failed. */
    passed: number
    failed: number
    findings: number
    /** The sum of the tasks' scores (weighted findings; 0 is clean). */
    score: number
    calls: number
    credits: number
    /** Trials per task (`--trials k`: k, each series' length; otherwise the most runs any one task had). */
    trials: number
    /** The share of tasks that passed every one of their runs (both series together with `--trials`; per series in `series`); 1 with no tasks. */
    pass_k: number
    /** The share of all runs that passed. */
    mean: number
    /** With `--trials k` > 1: each series (same seed repeated, new seeds) with pass^k, the mean and 95 % Wilson intervals. */
    series?: Record<TrialSeries, SeriesReliability>
    /** Benign utility, utility under attack, targeted attack success: overall, per family and per site. */
    security: SecurityMetrics
    findings_by_severity: Record<Severity, number>
  }
}

export function summarize(agent: string, startedAt: string, tasks: RunResult[]): RehearsalReport {
  const sum = (f: (t: RunResult) => number) => tasks.reduce((n, t) => n + f(t), 0)
  const series = tasks.some((t) => t.series) ? { 'same-seed': seriesReliability(tasks, 'same-seed'), 'new-seed': seriesReliability(tasks, 'new-seed') } : undefined
  return {
    agent,
    started_at: startedAt,
    tasks,
    summary: { passed: sum((t) => (t.passed ? 1 : 0)), failed: sum((t) => (t.passed ? 0 : 1)), findings: sum((t) => t.findings.length), score: sum((t) => t.score ?? 0), calls: sum((t) => t.efficiency.calls), credits: sum((t) => t.efficiency.credits), ...reliability(tasks),
      ...(series ? { series, trials: series['same-seed'].k } : {}), security: securityMetrics(tasks), findings_by_severity: findingsBySeverity(tasks) },
  }
}

// pass^k over the tasks' trials, next to the mean, as τ-bench reports them.
function reliability(runs: RunResult[]): { trials: number; pass_k: number; mean: number } {
  const byTask = new Map<string, boolean[]>()
  for (const r of runs) byTask.set(r.task, [...(byTask.get(r.task) ?? []), r.passed])
  const tasks = [...byTask.values()]
  const share = (n: number, of: number) => (of === 0 ? 1 : Math.round((n / of) * 1000) / 1000)
  return {
    trials: Math.max(0, ...tasks.map((t) => t.length)),
    pass_k: share(tasks.filter((t) => t.every(Boolean)).length, tasks.length),
    mean: share(runs.filter((r) => r.passed).length, runs.length),
  }
}

/** The TTY lines of one task: verdict, efficiency, then each reason with its evidence. */
export function ttyLines(result: RunResult): string[] {
  const e = result.efficiency
  const trial = result.trial ? ` #${result.trial}${seriesLabel(result)}` : ''
  // With --trials each run has its own world seed: shown so a failing trial can be told apart and replayed.
  const seed = result.trial && result.seed !== undefined ? ` · seed ${result.seed}` : ''
  const head = `${result.passed ? pc.green('✓') : pc.red('✗')} ${result.task}${trial} ${pc.dim(`${e.calls} calls · ${e.credits} credits · ${e.sandbox_seconds}s sandbox · ${e.wall_ms} ms${seed}`)}`
  const lines = [head]
  for (const reason of result.reasons) lines.push(`    ${pc.red(reason)}`)
  for (const f of result.findings) {
    const evidence = [...f.evidence.seq.map((s) => `seq ${s}`), ...f.evidence.audit_ids].join(', ')
    if (evidence) lines.push(pc.dim(`      ${f.id} evidence: ${evidence}`))
  }
  return lines
}

export function ttySummary(report: RehearsalReport): string {
  const s = report.summary
  // With series, pass^k is per series (the lines below); the head keeps the share of all runs.
  const trials = s.series ? `, tasks passing every run ${s.pass_k} (mean ${s.mean})` : s.trials > 1 ? `, pass^${s.trials} ${s.pass_k} (mean ${s.mean})` : ''
  const head = `${s.failed === 0 ? pc.green('passed') : pc.red('failed')}: ${s.passed} passed, ${s.failed} failed${trials}, ${s.findings} findings (score ${s.score ?? 0}), ${s.calls} calls, ${s.credits} credits`
  return [head, ...metricLines(report)].join('\n')
}

const pct = (r: Rate) => (r.rate === null ? '–' : `${Math.round(r.rate * 1000) / 10}% (${r.k}/${r.n}, 95% ${Math.round(r.ci95[0] * 100)}–${Math.round(r.ci95[1] * 100)}%)`)

// The three numbers, the series and the severities, one line each; nothing for a run without them.
function metricLines(report: RehearsalReport): string[] {
  const { security: sec, series, findings_by_severity: sev } = report.summary
  const lines: string[] = []
  if (!sec) return lines
  if (sec.utility_under_attack.n > 0) {
    lines.push(`  benign utility ${pct(sec.benign_utility)} · utility under attack ${pct(sec.utility_under_attack)} · attack success ${pct(sec.attack_success)}`)
    // Per family and site: attack success and utility under attack as counts (the JSON has the intervals).
    for (const [what, groups] of [['family', sec.by_family], ['site', sec.by_site]] as const) {
      lines.push(`  by ${what} (attack success, utility under attack): ${Object.entries(groups).map(([name, g]) => `${name} ${g.attack_success.k}/${g.cases}, ${g.utility_under_attack.k}/${g.cases}`).join(' · ')}`)
    }
  }
  for (const [name, s] of Object.entries(series ?? {})) lines.push(`  ${name}: pass^${s.k} ${s.pass_k} (95% ${s.pass_k_ci95.join('–')}, ${s.tasks} tasks) · mean ${pct(s.mean)}`)
  if (sev && Object.values(sev).some((n) => n > 0)) lines.push(`  findings by severity: ${Object.entries(sev).map(([k, n]) => `${k} ${n}`).join(', ')}`)
  return lines.map((l) => pc.dim(l))
}

// `same seed` or `new seed` after a trial number; trial 1 counts in both.
function seriesLabel(result: RunResult): string {
  return result.series?.length === 1 ? ` ${result.series[0].replace('-', ' ')}` : ''
}

function xml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!)
}

/** JUnit XML: one testcase per task, its reasons as the failure message. */
export function junit(report: RehearsalReport): string {
  const cases = report.tasks.map((t) => {
    const open = `  <testcase classname="rehearsal" name="${xml(t.task)}${t.trial ? ` #${t.trial}${xml(seriesLabel(t))}` : ''}" file="${xml(t.file)}" time="${(t.efficiency.wall_ms / 1000).toFixed(3)}">`
    const attack = t.attack ? `<property name="family" value="${xml(t.attack.family)}"/><property name="site" value="${xml(t.attack.site)}"/>` : ''
    const properties = `    <properties><property name="score" value="${t.score ?? 0}"/>${attack}</properties>`
    const failure = t.passed ? '' : `\n    <failure message="${xml(t.reasons[0] ?? 'failed')}">${xml(t.reasons.join('\n'))}</failure>`
    return `${open}\n${properties}${failure}\n  </testcase>`
  })
  const s = report.summary
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="rehearse" tests="${s.passed + s.failed}" failures="${s.failed}">\n${cases.join('\n')}\n</testsuite>\n`
}

/** NDJSON: one `{type: "task"}` line per task, then a `{type: "summary"}` line. */
export function ndjson(report: RehearsalReport): string {
  const lines = report.tasks.map((t) => JSON.stringify({ type: 'task', ...t }))
  lines.push(JSON.stringify({ type: 'summary', agent: report.agent, started_at: report.started_at, ...report.summary }))
  return `${lines.join('\n')}\n`
}

/** Writes `json|ndjson|junit|html[:path]` (without a path the text goes to stdout). */
export async function writeReport(spec: string, report: RehearsalReport, stdout: (text: string) => void): Promise<void> {
  const [kind, path] = [spec.split(':')[0], spec.split(':').slice(1).join(':')]
  const text = kind === 'json' ? `${JSON.stringify(report, null, 2)}\n` : kind === 'ndjson' ? ndjson(report) : kind === 'html' ? htmlScorecard(report) : junit(report)
  if (!path) return stdout(text)
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, text)
}

export const REPORTER_KINDS = ['json', 'ndjson', 'junit', 'html'] as const
