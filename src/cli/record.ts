import { Command, InvalidArgumentError, Option } from 'commander'

const many = (value: string, previous: string[] = []) => [...previous, value]

/**
 * `adops-sandbox record`: a recording proxy in front of a deployment, written on stop as a world,
 * a scenario, the MCP catalog and a replayable recording; `--replay DIR` serves a recording (issue 38).
 */
export function recordCommand(): Command {
  return new Command('record')
    .description('Record a session against a deployment (a proxy on both hosts and /mcp); on Ctrl-C write a world, a scenario, the MCP catalog and a replayable recording. --replay DIR serves a recording.')
    .option('--target-base <url>', 'the deployment\'s base host {base_url} (dispatcher, keys, /mcp)')
    .option('--target-api <url>', 'the deployment\'s api host {api_url} (/v1)')
    .addOption(new Option('--host <host>', 'interface to bind').default('127.0.0.1'))
    .addOption(new Option('--port <port>', 'base host port of the proxy (0 = a free one)').default(0).argParser(port))
    .addOption(new Option('--api-port <port>', 'api host port of the proxy (0 = a free one)').default(0).argParser(port))
    .option('--key-header <name>', 'another header that carries a credential, replaced by a placeholder (repeatable)', many)
    .option('--out <dir>', 'where the recording is written on stop', 'recording')
    .addOption(new Option('--max-exchanges <n>', 'exchanges kept at most (memory stays bounded); later requests are forwarded, not recorded').default(50_000).argParser(positive))
    .option('--reporter <spec>', 'on stop, replay the written session once against a sandbox on the recorded world and render it: json|junit|html[:file] (repeatable); exit 1 if it fails', many)
    .option('--replay <dir>', 'serve the recording in DIR (recording.json) instead of recording')
    .option('--capture-on-miss', '--replay: forward a request the recording lacks to --target-base/--target-api once, append it, rewrite recording.json on stop')
    .option('--json', 'print the banner and what was written as JSON lines')
    // A bad flag is a usage error: exit 2, as `conform`'s (commander's own is 1); help stays 0.
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
    .action(async (opts: RecordFlags) => {
      // Loaded on use: `serve` must not pay for the recorder.
      const { runRecordCli } = await import('./record-run.js')
      const stop = new Promise<string>((resolve) => {
        process.once('SIGINT', () => resolve('SIGINT'))
        process.once('SIGTERM', () => resolve('SIGTERM'))
      })
      const code = await runRecordCli(opts, { stop, stdout: process.stdout, stderr: process.stderr })
      process.exit(code)
    })
}

export interface RecordFlags {
  targetBase?: string
  targetApi?: string
  host: string
  port: number
  apiPort: number
  keyHeader?: string[]
  out: string
  maxExchanges?: number
  reporter?: string[]
  replay?: string
  captureOnMiss?: boolean
  json?: boolean
}

function port(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535')
  return n
}

function positive(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer')
  return n
}
