import type { RunOptions } from '../../conformance/runner.js'
import type { TargetSpec } from '../../conformance/targets.js'
import { ScenarioLoadError } from '../../conformance/loader.js'
import { TargetUnreachableError } from '../../conformance/targets.js'
import { YamlLoadError } from '../support/yaml-schema.js'
import { ttyReporter } from '../../conformance/reporters/tty.js'
import { fileReporter } from '../../conformance/reporters/files.js'
import { EXIT } from '../../conformance/exit-codes.js'
import { apiHostHint } from './target-hint.js'

/** The flags of `adops-sandbox conform` (see `conformCommand`). */
export interface CliOptions {
  target?: string; baseUrl?: string; apiUrl?: string; key?: string[]; adminToken?: string; jobs: number
  tags?: string[]; covers?: string[]; grep?: string; shard?: string; reporter?: string[]
  contract: 'inline' | 'prism-proxy' | 'off'; contractWarn?: boolean; coverage?: boolean; baseline: string | false; verbose?: boolean
  sdk?: string; includeSlow?: boolean; allowEmpty?: boolean
}

/** Runs `conform` with parsed flags; resolves to the process exit code (README "Exit codes"). */
export async function runCli(paths: string[], opts: CliOptions): Promise<number> {
  let options: RunOptions
  try {
    options = {
      paths,
      target: targetOf(opts),
      jobs: opts.jobs,
      tags: opts.includeSlow ? opts.tags : [...(opts.tags ?? []), '~slow'], covers: opts.covers, grep: opts.grep, shard: opts.shard,
      contract: opts.contract,
      contractSeverity: opts.contractWarn ? 'warn' : 'error',
      coverage: opts.coverage,
      allowEmpty: opts.allowEmpty,
      baseline: opts.baseline === false ? null : opts.baseline,
      secrets: Object.values(keysOf(opts.key)),
      reporters: [ttyReporter(process.stdout, { verbose: opts.verbose }), ...(opts.reporter ?? []).map(fileReporter)],
    }
  } catch (error) {
    process.stderr.write(`conform: ${(error as Error).message}\n`)
    return 2
  }
  // Loaded on use: the contract validator (Prism) costs seconds and ~100 MB that `serve` must not pay.
  const { runScenarios } = await import('../../conformance/runner.js')
  try {
    if (!opts.sdk) return (await runScenarios(options)).exitCode
    const { runWithSdk } = await import('../../conformance/sdk/run-with-sdk.js')
    return (await runWithSdk(opts.sdk, options)).exitCode
  } catch (error) {
    if (error instanceof ScenarioLoadError || error instanceof YamlLoadError) {
      process.stderr.write(`conform: scenario errors\n${error.message}\n`)
      return 2
    }
    if ((error as Error).name === 'AdapterError') {
      process.stderr.write(`conform: SDK adapter: ${(error as Error).message}\n`)
      return 3
    }
    if (error instanceof TargetUnreachableError) {
      // The api host given as --target is a usage mistake with a known fix: name the base URL.
      const hint = opts.target ? await apiHostHint(opts.target) : null
      process.stderr.write(hint ? `conform: ${hint}\n` : `conform: target unreachable: ${error.message}\n`)
      return hint ? EXIT.usage : EXIT.unreachable
    }
    if (/--shard|invalid regular expression/i.test((error as Error).message)) {
      process.stderr.write(`conform: ${(error as Error).message}\n`)
      return 2
    }
    throw error
  }
}

function targetOf(opts: CliOptions): TargetSpec {
  if (opts.target && opts.baseUrl) throw new Error('give either --target (a running sandbox) or --base-url (a real deployment), not both')
  if (opts.target) return { kind: 'url', baseUrl: opts.target.replace(/\/$/, ''), apiUrl: opts.apiUrl, adminToken: opts.adminToken }
  if (opts.baseUrl) {
    if (!opts.apiUrl) throw new Error('--base-url needs --api-url')
    return { kind: 'real', baseUrl: opts.baseUrl.replace(/\/$/, ''), apiUrl: opts.apiUrl.replace(/\/$/, ''), keys: keysOf(opts.key) }
  }
  return { kind: 'sandbox' }
}

function keysOf(keys: string[] = []): Record<string, string> {
  return Object.fromEntries(keys.map((k) => (k.includes('=') ? [k.slice(0, k.indexOf('=')), k.slice(k.indexOf('=') + 1)] : ['owner', k])))
}
