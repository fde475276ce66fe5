import pc from 'picocolors'
import type { DriftFinding, DriftKind } from '../drift-compare.js'
import type { DriftResult } from '../drift.js'

type Colors = ReturnType<typeof pc.createColors>

/** Headings in the order a team acts on them: bugs in the target first, then our own. */
export const KIND_TITLES: Record<DriftKind, string> = {
  'target-violates-spec': 'target violates the spec (file a bug against the target)',
  'sandbox-violates-spec': 'sandbox violates the spec (file a bug against the sandbox)',
  'decision-differs': 'sandbox decision differs from the target (the spec is silent: update docs/decisions.md or the sandbox)',
  'both-fail': 'both fail the scenario (the scenario or the spec reading may be wrong)',
}

/** The drift report for people: one block per kind, one line per difference, then a summary. */
export function renderDrift(result: DriftResult, c: Colors = pc.createColors(false)): string {
  const lines: string[] = []
  const { comparison: cmp } = result
  lines.push(c.bold(`drift: ${result.scenarios} scenarios, ${cmp.compared} steps compared, sandbox vs ${result.target}`))
  for (const kind of Object.keys(KIND_TITLES) as DriftKind[]) {
    const found = cmp.findings.filter((f) => f.kind === kind)
    if (found.length === 0) continue
    lines.push('', c.bold(`${KIND_TITLES[kind]}: ${found.length}`))
    for (const f of found) lines.push(`  ${findingLine(f, c)}`)
  }
  if (cmp.notCompared.length > 0) {
    lines.push('', c.dim(`not compared: ${cmp.notCompared.length}`))
    for (const n of cmp.notCompared) lines.push(c.dim(`  ${n.scenario}${n.step === '*' ? '' : ` step ${n.step}`}: ${n.reason}`))
  }
  lines.push('', summaryLine(result, c))
  return `${lines.join('\n')}\n`
}

/** `scenario step 3 GET /v1/campaigns  field-missing $.campaigns[].name: sandbox string, target absent` */
export function findingLine(f: DriftFinding, c: Colors = pc.createColors(false)): string {
  const where = f.where ? ` ${f.where}` : ''
  return `${f.scenario} step ${f.step} ${c.dim(f.request)}  ${c.yellow(f.aspect)}${where}: sandbox ${show(f.sandbox)}, target ${show(f.target)}`
}

function summaryLine(result: DriftResult, c: Colors): string {
  const n = result.comparison.findings.length
  if (result.exitCode === 5) return c.yellow('drift: nothing could be compared (no step ran on both sides)')
  return n === 0 ? c.green('drift: none — the target and the sandbox agree on every compared step') : c.red(`drift: ${n} difference${n === 1 ? '' : 's'}`)
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}
