import { Command, Option } from 'commander'
import { availableParallelism } from 'node:os'

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
    .option('--admin-token <token>', 'X-Sandbox-Admin for a running sandbox (default: SANDBOX_ADMIN_TOKEN, else the token file serve wrote next to SANDBOX_STATE or .sandbox/state.json)')
    .option('--jobs <n>', 'scenarios in parallel', (v) => Number.parseInt(v, 10), availableParallelism())
    .option('--tags <tags>', 'only these tags (comma-separated; ~tag excludes)', list)
    .option('--covers <ids>', 'only scenarios covering these rule ids or prefixes', list)
    .option('--grep <regex>', 'only scenarios whose id or title matches')
    .option('--shard <i/n>', 'run shard i of n (deterministic split by id)')
    .option('--reporter <spec>', 'json|ndjson|junit|html[:file] (repeatable)', many)
    .addOption(new Option('--contract <mode>', 'contract validation').choices(['inline', 'prism-proxy', 'off']).default('inline'))
    .option('--contract-warn', 'report contract violations without failing steps')
    .option('--coverage', 'fail with exit 4 unless every rule id is covered by a scenario that passed in this run')
    .option('--allow-empty', 'exit 0 when no scenario ran (all filtered out or skipped) instead of 5')
    .option('--baseline <file>', 'known failures', 'conformance/baseline.yaml')
    .option('--no-baseline', 'ignore the baseline file')
    .option('--verbose', 'print every transcript')
    .option('--sdk <command>', 'SDK mode: spawn this adapter (JSON lines on stdin/stdout, docs/guide-sdk.md) for `sdk` steps')
    .option('--drift', 'compare a deployment (--base-url/--api-url/--key, or --target) with the sandbox step by step; report where they disagree')
    .option('--explore', 'search the target for violations from the contract and the rule catalog; each is written, shrunk, as a scenario (docs/guide-ci.md "Exploring")')
    .option('--seed <n>', '--explore: the search seed (a whole number, or `random`); same seed, same sequences', '1')
    .option('--runs <n>', '--explore: call sequences to try', (v) => Number.parseInt(v, 10), 100)
    .option('--time-budget <seconds>', '--explore: stop starting sequences after this long', (v) => Number.parseFloat(v))
    .option('--out <dir>', '--explore: where the reproducing scenarios go', 'explore-findings')
    .option('--allow-writes', '--explore: also write against a deployment (a sandbox always allows writes)')
    .option('--include-slow', 'also run scenarios tagged `slow` (real waits of seconds; left out by default)')
    .action(async (paths: string[], opts) => {
      // The kit (loader, reporters, SDK steps and their MCP client) is loaded on use: `serve` must not pay for it.
      const { runCli } = await import('./conform-run.js')
      process.exitCode = await runCli(paths, opts)
    })
  command.command('merge')
    .description('Combine JSON reports of a sharded run and render them.')
    .argument('<files...>', 'JSON reports (--reporter json:file)')
    .option('--reporter <spec>', 'json|ndjson|junit|html[:file] (repeatable)', many)
    .option('--coverage', 'exit 4 unless every rule id is covered by a passing scenario')
    .option('--allow-empty', 'exit 0 when no scenario ran instead of 5')
    .action(async (files: string[], _opts: unknown, merge: Command) => {
      // `conform` declares the same options, so commander may file them there: read both.
      const opts = merge.optsWithGlobals<{ reporter?: string[]; coverage?: boolean; allowEmpty?: boolean }>()
      const { mergeReports } = await import('../../conformance/merge.js')
      const { ttyReporter } = await import('../../conformance/reporters/tty.js')
      const { fileReporter } = await import('../../conformance/reporters/files.js')
      const run = await mergeReports(files, { reporters: [ttyReporter(), ...(opts.reporter ?? []).map(fileReporter)], coverage: opts.coverage, allowEmpty: opts.allowEmpty })
      process.exitCode = run.exitCode
    })
  return command
}
