import { Command, Option } from 'commander'
import { availableParallelism } from 'node:os'
import type { RunOptions } from '../../conformance/runner.js'
import type { TargetSpec } from '../../conformance/targets.js'
import { ScenarioLoadError } from '../../conformance/loader.js'
import { TargetUnreachableError } from '../../conformance/targets.js'
import { YamlLoadError } from '../support/yaml-schema.js'
import { ttyReporter } from '../../conformance/reporters/tty.js'
import { fileReporter } from '../../conformance/reporters/files.js'

const list = (value: string, previous: string[] = []) => [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)]
const many = (value: string, previous: string[] = []) => [...previous, value]

/** `adops-sandbox conform [paths…]`: runs scenarios and renders the runner's events (issue 5). */
export function conformCommand(): Command {
  const command = new Command('conform')
    .description('Replay YAML scenarios against the sandbox (default), a running sandbox or a real deployment.')
    .argument('[paths...]', 'scenario files or folders', ['scenarios'])
    .option('--target <url>', 'a running sandbox (its base URL); scenarios run one at a time')
    .option('--base-url <url>', 'a real deployment: {base_url}')
    .option('--api-url <url>', 'the api host {api_url} (real deployment; optional with --target)')
    .option('--key <name=value>', 'a credential for `auth: <name>` (repeatable; a bare value is named `owner`)', many)
    .option('--admin-token <token>', 'X-Sandbox-Admin for a running sandbox')
    .option('--jobs <n>', 'scenarios in parallel', (v) => Number.parseInt(v, 10), availableParallelism())
    .option('--tags <tags>', 'only these tags (comma-separated; ~tag excludes)', list)
    .option('--covers <ids>', 'only scenarios covering these rule ids or prefixes', list)
    .option('--grep <regex>', 'only scenarios whose id or title matches')
    .option('--shard <i/n>', 'run shard i of n (deterministic split by id)')
    .option('--reporter <spec>', 'json|ndjson|junit|html[:file] (repeatable)', many)
    .addOption(new Option('--contract <mode>', 'contract validation').choices(['inline', 'prism-proxy', 'off']).default('inline'))
    .option('--contract-warn', 'report contract violations without failing steps')
    .option('--coverage', 'fail with exit 4 unless every rule id is covered by a scenario')
    .option('--baseline <file>', 'known failures', 'conformance/baseline.yaml')
    .option('--no-baseline', 'ignore the baseline file')
    .option('--verbose', 'print every transcript')
    .option('--sdk <command>', 'SDK mode: spawn this adapter (JSON lines on stdin/stdout, README "Testing your SDK") for `sdk` steps')
    .option('--include-slow', 'also run scenarios tagged `slow` (real waits of seconds; left out by default)')
    .action(async (paths: string[], opts) => {
      process.exitCode = await runCli(paths, opts)
    })
  command.command('merge')
    .description('Combine JSON reports of a sharded run and render them.')
    .argument('<files...>', 'JSON reports (--reporter json:file)')
    .option('--reporter <spec>', 'json|ndjson|junit|html[:file] (repeatable)', many)
    .option('--coverage', 'exit 4 unless every rule id is covered')
    .action(async (files: string[], _opts: unknown, merge: Command) => {
      // `conform` declares the same options, so commander may file them there: read both.
      const opts = merge.optsWithGlobals<{ reporter?: string[]; coverage?: boolean }>()
      const { mergeReports } = await import('../../conformance/merge.js')
      const run = await mergeReports(files, { reporters: [ttyReporter(), ...(opts.reporter ?? []).map(fileReporter)], coverage: opts.coverage })
      process.exitCode = run.exitCode
    })
  return command
}

interface CliOptions {
  target?: string; baseUrl?: string; apiUrl?: string; key?: string[]; adminToken?: string; jobs: number
  tags?: string[]; covers?: string[]; grep?: string; shard?: string; reporter?: string[]
  contract: 'inline' | 'prism-proxy' | 'off'; contractWarn?: boolean; coverage?: boolean; baseline: string | false; verbose?: boolean
  sdk?: string; includeSlow?: boolean
}

async function runCli(paths: string[], opts: CliOptions): Promise<number> {
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
      process.stderr.write(`conform: target unreachable: ${error.message}\n`)
      return 3
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
