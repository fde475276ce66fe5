import { randomInt } from 'node:crypto'
import pc from 'picocolors'
import type { CliOptions } from './conform-run.js'
import { keysOf, targetOf } from './conform-run.js'
import { colorEnabled } from '../../conformance/reporters/color.js'
import { fileReporter } from '../../conformance/reporters/files.js'
import { EXIT } from '../../conformance/exit-codes.js'
import { Secrets } from '../../conformance/secrets.js'
import { TargetUnreachableError, makeTarget } from '../../conformance/targets.js'
import type { Roles } from '../../conformance/explore/actions.js'

/** The flags `--explore` adds to `conform`. */
export interface ExploreFlags {
  seed?: string
  runs?: number
  timeBudget?: number
  out?: string
  allowWrites?: boolean
}

/**
 * `conform --explore`: searches the target for violations nobody wrote a scenario for (issue 38),
 * writing each, shrunk, as a scenario that reproduces it. Exit 0 nothing found, 1 found, 2 usage,
 * 3 unreachable. Read-only against a deployment unless `--allow-writes`.
 */
export async function runExploreCli(opts: CliOptions & ExploreFlags): Promise<number> {
  let spec
  let seed: number
  try {
    spec = targetOf(opts)
    seed = seedOf(opts.seed)
  } catch (error) {
    process.stderr.write(`conform: ${(error as Error).message}\n`)
    return EXIT.usage
  }
  const keys = keysOf(opts.key)
  if (spec.kind === 'real' && !keys.main) {
    process.stderr.write('conform: --explore against a deployment needs --key main=<value> (any scopes), and optionally other=<key of another workspace> and limited=<key without budget:write>\n')
    return EXIT.usage
  }
  const roles: Roles | undefined = spec.kind === 'real' ? { main: 'main', other: keys.other ? 'other' : undefined, limited: keys.limited ? 'limited' : undefined } : undefined
  const out = opts.out ?? 'explore-findings'
  const c = pc.createColors(colorEnabled(process.stdout))
  const tty = process.stderr.isTTY === true
  const { explore } = await import('../../conformance/explore/explore.js')
  const { exploreRun, writeFindings } = await import('../../conformance/explore/explore-report.js')
  const target = makeTarget(spec)
  let result
  try {
    result = await explore({
      target, seed, roles, runs: opts.runs ?? 100, allowWrites: opts.allowWrites,
      timeBudgetMs: opts.timeBudget === undefined ? undefined : opts.timeBudget * 1000,
      onProgress: (p) => {
        if (tty) process.stderr.write(`\rexplore: ${p.runs}/${p.of} sequences, ${p.findings} violation${p.findings === 1 ? '' : 's'}  `)
      },
    })
  } catch (error) {
    if (error instanceof TargetUnreachableError) {
      process.stderr.write(`\nconform: target unreachable: ${error.message}\n`)
      return EXIT.unreachable
    }
    throw error
  }
  if (tty) process.stderr.write('\n')
  const files = await writeFindings(result, out)
  result.findings.forEach((f, i) => {
    process.stdout.write(`${c.red('✗')} ${f.property} — ${f.scenario.steps.length} step${f.scenario.steps.length === 1 ? '' : 's'}\n    ${f.reason.split('\n')[0]}\n    reproduce: adops-sandbox conform ${files[i]}${spec.kind === 'sandbox' ? '' : ' (with the same target flags)'}\n`)
  })
  const run = exploreRun(result, target.describe, files)
  const secrets = new Secrets()
  Object.values(keys).forEach((value, i) => secrets.add(`key${i + 1}`, value))
  for (const reporter of (opts.reporter ?? []).map(fileReporter)) await reporter.finish?.(run, secrets)
  const mode = spec.kind === 'real' && !opts.allowWrites ? ', read-only' : ''
  const stopped = result.stopped ? ` (stopped: ${result.stopped})` : ''
  process.stdout.write(`explore: ${result.runs} sequences, seed ${result.seed}${mode}, ${(result.duration_ms / 1000).toFixed(1)} s${stopped}\n`)
  process.stdout.write(result.findings.length
    ? `${c.red(`${result.findings.length} violation${result.findings.length === 1 ? '' : 's'} found`)}, written to ${out}/ (rerun the same search with --seed ${result.seed})\n`
    : `${c.green('no violation found')}\n`)
  return result.findings.length ? EXIT.failed : EXIT.passed
}

/** `--seed N`, or `random` for a new search each time (printed, so it can be repeated). Default 1. */
function seedOf(seed: string | undefined): number {
  if (seed === undefined) return 1
  if (seed === 'random') return randomInt(1, 2 ** 31 - 1)
  if (!/^\d+$/.test(seed)) throw new Error(`--seed takes a whole number or \`random\`; got ${seed}`)
  return Number(seed)
}
