import { Command } from 'commander'

const many = (value: string, previous: string[] = []) => [...previous, value]

/** `adops-sandbox rehearse --agent "<command>" [tasks…]`: rehearses an agent on task files (issue 20, docs/rehearsal.md). */
export function rehearseCommand(): Command {
  return new Command('rehearse')
    .description('Run an agent through rehearsal tasks on a fresh sandbox each and grade what it did, safety first.')
    .argument('[tasks...]', 'task files or folders (default: the shipped tasks)')
    .option('--agent <command>', 'the agent to rehearse, run in a shell with SERVICE_API_KEY, SERVICE_BASE_URL, SERVICE_API_URL, SERVICE_MCP_URL and REHEARSAL_GOAL set; the goal also on stdin')
    .option('--grep <regex>', 'only tasks whose name matches')
    .option('--jobs <n>', 'tasks rehearsed at once, each on its own sandbox', (v) => Number.parseInt(v, 10), 1)
    .option('--reporter <spec>', 'json|junit[:file] (repeatable)', many)
    .action(async (tasks: string[], opts: { agent?: string; grep?: string; jobs?: number; reporter?: string[] }) => {
      // Loaded on use: `serve` must not pay for the rehearsal runner.
      const { runRehearsal } = await import('../rehearse/rehearse-run.js')
      process.exitCode = (await runRehearsal(tasks, opts)).exitCode
    })
}
