import { rename, writeFile } from 'node:fs/promises'
import { Command, Option } from 'commander'
import { readServiceEnv } from '../config.js'

const many = (value: string, previous: string[] = []) => [...previous, value]

export interface PullFlags {
  url: string
  out: string
  keyHeader?: string[]
}

/**
 * `adops-sandbox catalog pull` (issue 35 item 5): writes a live server's `tools/list` as a snapshot
 * `serve --catalog` loads. The key comes from `SERVICE_API_KEY` and is never written.
 */
export function catalogCommand(): Command {
  const command = new Command('catalog').description('tool-catalog snapshots (docs/catalogs.md)')
  command.command('pull')
    .description('write a hosted MCP server\'s tools/list (every page) to a snapshot file; key from SERVICE_API_KEY')
    .requiredOption('--url <url>', 'the hosted MCP endpoint, e.g. https://mcp.example.com/mcp')
    .requiredOption('--out <file>', 'the snapshot file to write (JSON)')
    .addOption(new Option('--key-header <name>', 'a header that carries the key (repeatable; default X-Service-Key; Authorization sends Bearer)').argParser(many))
    .action(async (flags: PullFlags) => {
      process.exitCode = await runPull(flags, readServiceEnv().apiKey)
    })
  return command
}

/** Runs a pull; resolves to the exit code (0 written, 2 usage, 3 the server could not be read). */
export async function runPull(flags: PullFlags, key: string | undefined, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<number> {
  let url: URL
  try {
    url = new URL(flags.url)
  } catch {
    log(`catalog pull: --url ${JSON.stringify(flags.url)} is not a URL`)
    return 2
  }
  if (!key) log('catalog pull: SERVICE_API_KEY is not set; pulling without a key (most servers answer 401)')
  // Loaded on use: the MCP client is an import every other command can do without.
  const { pullTools, recordableUrl } = await import('../client/mcp-catalog.js')
  let pulled: Awaited<ReturnType<typeof pullTools>>
  try {
    pulled = await pullTools({ url: url.href, key, keyHeaders: flags.keyHeader?.length ? flags.keyHeader : undefined })
  } catch (error) {
    const message = (error as Error).message
    log(`catalog pull: could not read tools/list from ${recordableUrl(url.href)}: ${key ? message.split(key).join('***') : message}`)
    return 3
  }
  const snapshot = { tools: pulled.tools, pulled: { url: recordableUrl(url.href), server: pulled.server, pages: pulled.pages, at: new Date().toISOString() } }
  // Written whole, then renamed: an interrupted pull never leaves half a catalog where the old one was.
  const temp = `${flags.out}.${process.pid}.tmp`
  await writeFile(temp, `${JSON.stringify(snapshot, null, 2)}\n`)
  await rename(temp, flags.out)
  log(`catalog pull: wrote ${pulled.tools.length} tools (${pulled.pages} page${pulled.pages === 1 ? '' : 's'}) to ${flags.out}`)
  return 0
}
