import { Command } from 'commander'

const many = (value: string, previous: string[] = []) => [...previous, value]

/** `adops-sandbox rehearse --agent "<command>" [tasks…]`: rehearses an agent on task files (issue 20, docs/rehearsal.md). */
export function rehearseCommand(): Command {
  const command = new Command('rehearse')
    .description('Run an agent through rehearsal tasks on a fresh sandbox each and grade what it did, safety first.')
    .argument('[tasks...]', 'task files, matrix files or folders (default: the shipped tasks and suite)')
    .option('--agent <command>', 'the agent to rehearse, run in a shell with SERVICE_API_KEY, SERVICE_BASE_URL, SERVICE_API_URL, SERVICE_MCP_URL and REHEARSAL_GOAL set; the goal also on stdin')
    .option('--grep <regex>', 'only tasks whose name matches')
    .option('--jobs <n>', 'tasks rehearsed at once, each on its own sandbox', (v) => Number.parseInt(v, 10), 1)
    .option('--trials <k>', 'run each task k times on the same seed and k times on new world seeds (trial 1 shared), each on a fresh sandbox; reports pass^k, the mean and 95% intervals per series', (v) => Number(v), 1)
    .option('--shard <i/n>', 'rehearse shard i of n (by task name order); combine the JSON reports with `rehearse merge`')
    .option('--reporter <spec>', 'json|ndjson|junit|html[:file] (repeatable)', many)
    .option('--agent-env <name>', 'pass this variable of your environment to the agent (repeatable); it gets only PATH, HOME, LANG, TMPDIR and its own otherwise', many)
    .action(async (tasks: string[], opts: { agent?: string; grep?: string; jobs?: number; trials?: number; shard?: string; reporter?: string[]; agentEnv?: string[] }) => {
      // Loaded on use: `serve` must not pay for the rehearsal runner.
      const { runRehearsal } = await import('../rehearse/rehearse-run.js')
      process.exitCode = (await runRehearsal(tasks, opts)).exitCode
    })
  command.command('merge')
    .description('Combine the JSON reports of a sharded rehearsal and render them.')
    .argument('<files...>', 'JSON reports (--reporter json:file)')
    .option('--reporter <spec>', 'json|ndjson|junit|html[:file] (repeatable)', many)
    .action(async (files: string[], _opts: unknown, merge: Command) => {
      // `rehearse` declares the same option, so commander may file it there: read both.
      const opts = merge.optsWithGlobals<{ reporter?: string[] }>()
      const { mergeReports } = await import('../rehearse/shard.js')
      const { render } = await import('../rehearse/rehearse-run.js')
      const out = (line: string) => process.stdout.write(`${line}\n`)
      process.exitCode = (await render(await mergeReports(files), opts.reporter ?? [], out)).exitCode
    })
  return command
}
