import { writeFile } from 'node:fs/promises'
import pc from 'picocolors'
import type { CliOptions } from './conform-run.js'
import { keysOf, targetOf } from './conform-run.js'
import { colorEnabled } from '../../conformance/reporters/color.js'
import { renderDrift } from '../../conformance/reporters/drift-text.js'
import { EXIT } from '../../conformance/exit-codes.js'
import { hasCatalogDrift, renderCatalogDrift } from '../../conformance/catalog-drift.js'
import type { CatalogDriftOutcome } from './conform-catalog-drift.js'
import { catalogDrift } from './conform-catalog-drift.js'

/**
 * `conform --drift`: the tool catalogs (`tools/list` over MCP; issue 35), then the spec scenarios
 * against the sandbox and the target side by side, and where the two disagree (docs/conformance.md
 * "Drift check", docs/catalogs.md). Exit 0 no drift, 1 drift, 2 usage, 3 target unreachable (or,
 * with --catalog-only, its catalog unreadable), 5 nothing compared. `--reporter json:<file>` writes
 * the findings as JSON.
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
  const keys = keysOf(opts.key)
  const catalog = await catalogHalf(target.baseUrl, keys, opts)
  if (opts.catalogOnly) {
    for (const spec of opts.reporter ?? []) await writeFile(spec.slice('json:'.length), `${JSON.stringify({ catalog }, null, 2)}\n`)
    return 'error' in catalog ? EXIT.unreachable : hasCatalogDrift(catalog.drift) ? 1 : 0
  }
  const { runDrift } = await import('../../conformance/drift.js')
  const result = await runDrift({
    target, paths, jobs: opts.jobs, covers: opts.covers, grep: opts.grep,
    tags: opts.tags?.length ? [...opts.tags, '~slow'] : undefined,
    secrets: Object.values(keysOf(opts.key)),
    onSide: (side, run) => process.stdout.write(c.dim(`drift: ${side} ran ${run.scenarios.length} scenarios (${run.summary.passed} passed, ${run.summary.failed} failed, ${run.summary.skipped} skipped)\n`)),
  })
  process.stdout.write(renderDrift(result, c))
  for (const spec of opts.reporter ?? []) await writeFile(spec.slice('json:'.length), `${JSON.stringify({ ...result, catalog }, null, 2)}\n`)
  // Catalog drift is drift too; a catalog that could not be read does not hide the scenarios' verdict.
  return result.exitCode === 0 && 'drift' in catalog && hasCatalogDrift(catalog.drift) ? 1 : result.exitCode
}

/** The tool catalogs compared (issue 35 item 5); printed as it comes, returned for the JSON report. */
async function catalogHalf(baseUrl: string, keys: Record<string, string>, opts: CliOptions): Promise<CatalogDriftOutcome> {
  const mcpUrl = opts.mcpUrl ?? `${baseUrl}/mcp`
  const outcome = await catalogDrift({ mcpUrl, key: keys.owner ?? Object.values(keys)[0], keyHeaders: opts.keyHeader, catalog: opts.catalog })
  process.stdout.write('error' in outcome ? `catalog drift: not compared: ${mcpUrl}: ${outcome.error}\n` : renderCatalogDrift(outcome.drift, mcpUrl))
  return outcome
}
