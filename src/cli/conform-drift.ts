import { writeFile } from 'node:fs/promises'
import pc from 'picocolors'
import type { CliOptions } from './conform-run.js'
import { keysOf, targetOf } from './conform-run.js'
import { colorEnabled } from '../../conformance/reporters/color.js'
import { renderDrift } from '../../conformance/reporters/drift-text.js'
import { EXIT } from '../../conformance/exit-codes.js'

/**
 * `conform --drift`: the spec scenarios against the sandbox and the target side by side, then
 * where the two disagree (docs/conformance.md "Drift check"). Exit 0 no drift, 1 drift, 2 usage,
 * 3 target unreachable, 5 nothing compared. `--reporter json:<file>` writes the findings as JSON.
 */
export async function runDriftCli(paths: string[], opts: CliOptions): Promise<number> {
  const target = (() => {
    try {
      return targetOf(opts)
    } catch (error) {
      process.stderr.write(`conform: ${(error as Error).message}\n`)
      return null
    }
  })()
  if (!target) return EXIT.usage
  if (target.kind === 'sandbox') {
    process.stderr.write('conform: --drift compares a deployment with the sandbox: give --base-url and --api-url (and --key name=value), or --target\n')
    return EXIT.usage
  }
  const bad = (opts.reporter ?? []).find((r) => !r.startsWith('json:'))
  if (bad) {
    process.stderr.write(`conform: --drift writes only json:<file> reports; got ${bad}\n`)
    return EXIT.usage
  }
  const c = pc.createColors(colorEnabled(process.stdout))
  const { runDrift } = await import('../../conformance/drift.js')
  const result = await runDrift({
    target, paths, jobs: opts.jobs, covers: opts.covers, grep: opts.grep,
    tags: opts.tags?.length ? [...opts.tags, '~slow'] : undefined,
    secrets: Object.values(keysOf(opts.key)),
    onSide: (side, run) => process.stdout.write(c.dim(`drift: ${side} ran ${run.scenarios.length} scenarios (${run.summary.passed} passed, ${run.summary.failed} failed, ${run.summary.skipped} skipped)\n`)),
  })
  process.stdout.write(renderDrift(result, c))
  for (const spec of opts.reporter ?? []) await writeFile(spec.slice('json:'.length), `${JSON.stringify(result, null, 2)}\n`)
  return result.exitCode
}
