import { createRequire } from 'node:module'
import type { RunOptions } from '../../conformance/runner.js'
import type { TargetSpec } from '../../conformance/targets.js'
import { ScenarioLoadError } from '../../conformance/loader.js'
import { TargetUnreachableError } from '../../conformance/targets.js'
import { YamlLoadError } from '../support/yaml-schema.js'
import { ttyReporter } from '../../conformance/reporters/tty.js'
import { fileReporter } from '../../conformance/reporters/files.js'
import { EXIT } from '../../conformance/exit-codes.js'
import { apiHostHint } from './target-hint.js'
import { readEnv } from '../config.js'
import { findAdminToken } from '../support/admin-token-file.js'

/** The flags of `adops-sandbox conform` (see `conformCommand`). */
export interface CliOptions {
  target?: string; baseUrl?: string; apiUrl?: string; key?: string[]; adminToken?: string; jobs: number
  tags?: string[]; covers?: string[]; grep?: string; shard?: string; reporter?: string[]
  contract: 'inline' | 'prism-proxy' | 'off'; contractWarn?: boolean; coverage?: boolean; baseline: string | false; verbose?: boolean
  sdk?: string; includeSlow?: boolean; allowEmpty?: boolean; drift?: boolean
  explore?: boolean; seed?: string; runs?: number; timeBudget?: number; out?: string; allowWrites?: boolean
}

/** Runs `conform` with parsed flags; resolves to the process exit code (docs/conformance.md "Exit codes"). */
export async function runCli(paths: string[], opts: CliOptions): Promise<number> {
  if (opts.drift) return runDriftOrExplain(paths, opts)
  if (opts.explore) return (await import('./conform-explore.js')).runExploreCli(opts)
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
  // Checked before anything starts: `prism proxy` comes from a dev dependency (docs/conformance.md "Installing").
  if (opts.contract === 'prism-proxy' && !resolvable('@stoplight/prism-cli/package.json')) {
    process.stderr.write(`conform: ${missingModule({ code: 'MODULE_NOT_FOUND', message: "Cannot find module '@stoplight/prism-cli'" })}\n`)
    return EXIT.usage
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
      const hint = opts.target ? await apiHostHint(opts.target, adminTokenOf(opts)) : null
      process.stderr.write(hint ? `conform: ${hint}\n` : `conform: target unreachable: ${error.message}\n`)
      return hint ? EXIT.usage : EXIT.unreachable
    }
    const missing = missingModule(error)
    if (missing) {
      process.stderr.write(`conform: ${missing}\n`)
      return EXIT.usage
    }
    if (/--shard|invalid regular expression/i.test((error as Error).message)) {
      process.stderr.write(`conform: ${(error as Error).message}\n`)
      return 2
    }
    throw error
  }
}

/** `--drift` with the same exit codes for load errors and an unreachable target. */
async function runDriftOrExplain(paths: string[], opts: CliOptions): Promise<number> {
  const { runDriftCli } = await import('./conform-drift.js')
  try {
    return await runDriftCli(paths, opts)
  } catch (error) {
    if (error instanceof ScenarioLoadError || error instanceof YamlLoadError) {
      process.stderr.write(`conform: scenario errors\n${error.message}\n`)
      return EXIT.usage
    }
    if (error instanceof TargetUnreachableError) {
      process.stderr.write(`conform: target unreachable: ${error.message}\n`)
      return EXIT.unreachable
    }
    throw error
  }
}

/** The target the flags name (exported for `--drift`). */
export function targetOf(opts: CliOptions): TargetSpec {
  if (opts.target && opts.baseUrl) throw new Error('give either --target (a running sandbox) or --base-url (a real deployment), not both')
  if (opts.target) return { kind: 'url', baseUrl: opts.target.replace(/\/$/, ''), apiUrl: opts.apiUrl, adminToken: adminTokenOf(opts) }
  if (opts.baseUrl) {
    if (!opts.apiUrl) throw new Error('--base-url needs --api-url')
    return { kind: 'real', baseUrl: opts.baseUrl.replace(/\/$/, ''), apiUrl: opts.apiUrl.replace(/\/$/, ''), keys: keysOf(opts.key) }
  }
  return { kind: 'sandbox' }
}

/** `--admin-token`, else `SANDBOX_ADMIN_TOKEN`, else the token file serve wrote next to its state (issue 33). */
function adminTokenOf(opts: CliOptions): string | undefined {
  const env = readEnv()
  return findAdminToken({ flag: opts.adminToken, env: env.adminToken, state: env.state })
}

/** `--key name=value` flags as a map; a bare value is `owner`. */
export function keysOf(keys: string[] = []): Record<string, string> {
  return Object.fromEntries(keys.map((k) => (k.includes('=') ? [k.slice(0, k.indexOf('=')), k.slice(k.indexOf('=') + 1)] : ['owner', k])))
}

/**
 * A package this run needs is not installed. Only `--contract prism-proxy` should get here after
 * `npm install --omit=dev`: it runs `@stoplight/prism-cli`, a dev dependency (docs/conformance.md
 * "Installing").
 */
function missingModule(error: unknown): string | null {
  const { code, message } = error as { code?: string; message?: string }
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return null
  const name = /['"]((?:@[^/'"]+\/)?[^/'"]+)/.exec(message ?? '')?.[1] ?? 'a package'
  const fix = name === '@stoplight/prism-cli' ? 'npm install --save-dev @stoplight/prism-cli@5.14.2 (or use --contract inline, the default)' : `npm install ${name}`
  return `${name} is not installed; this run needs it: ${fix}`
}

function resolvable(specifier: string): boolean {
  try {
    createRequire(import.meta.url).resolve(specifier)
    return true
  } catch {
    return false
  }
}

