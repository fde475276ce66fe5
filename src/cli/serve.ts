import { existsSync, readdirSync, rmSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { Command, InvalidArgumentError, Option } from 'commander'
import pino from 'pino'
import { readEnv } from '../config.js'
import { DURABILITIES, buildSandbox } from '../sandbox.js'
import type { Durability } from '../sandbox.js'
import { JOURNAL_MAX_BYTES } from '../http/journal.js'
import { isLoopback, listen } from '../runtime/listen.js'
import { applyHeapPolicy } from '../runtime/heap-policy.js'
import { renderBanner } from './banner.js'
import { mcpPageSizeOption } from './mcp-page-size.js'
import type { BannerInfo } from './banner.js'
import { consoleLink } from '../console/console-sign-in.js'
import { adminTokenFile, removeAdminTokenFile, writeAdminTokenFile } from '../support/admin-token-file.js'
import { keyHeadersOf } from '../http/credentials.js'

/** `adops-sandbox serve`: both hosts on one state, until Ctrl-C. */
export function serveCommand(): Command {
  const env = readEnv()
  return new Command('serve')
    .description('start the sandbox: base host (dispatcher, keys, control plane) and api host (/v1)')
    .addOption(new Option('--host <host>', 'interface to bind').default(env.host ?? '127.0.0.1').env('SANDBOX_HOST'))
    .addOption(new Option('--port <port>', 'base host port (0 = ephemeral)').default(env.port ?? '4010').argParser(port).env('SANDBOX_PORT'))
    .addOption(new Option('--api-port <port>', 'api host port (0 = ephemeral)').default(env.apiPort ?? '4011').argParser(port).env('SANDBOX_API_PORT'))
    .addOption(new Option('--state <file|memory>', 'state file, or memory').default(env.state ?? '.sandbox/state.json').env('SANDBOX_STATE'))
    .addOption(new Option('--world <name|path>', 'world to load into a new state').default(env.world ?? 'default').env('SANDBOX_WORLD'))
    .addOption(new Option('--seed <n>', 'faker seed (overrides the world\'s)').argParser(integer).env('SANDBOX_SEED'))
    .addOption(new Option('--admin-token <token>', 'the X-Sandbox-Admin token /_sandbox and the console require (default: a random one per start, printed and written next to the state file)').env('SANDBOX_ADMIN_TOKEN'))
    .option('--open-control-plane', 'no admin token: anyone who can reach the base port may approve, reset and mint keys (loopback only)')
    .addOption(new Option('--durability <mode>', 'what an acknowledged write survives: process (kill -9) or fsync (also power loss; slower)').default(env.durability ?? 'process').choices(DURABILITIES).env('SANDBOX_DURABILITY'))
    .addOption(new Option('--journal-limit <n>', 'exchanges kept in the request journal').default(10_000).argParser(positive))
    .addOption(new Option('--journal-file <file>', 'also append the journal as JSONL').env('SANDBOX_JOURNAL_FILE'))
    .addOption(new Option('--journal-max-bytes <n>', 'bytes the request journal may hold; the oldest exchanges go first').default(JOURNAL_MAX_BYTES).argParser(positive).env('SANDBOX_JOURNAL_MAX_BYTES'))
    .addOption(new Option('--log-level <level>', 'pino level on stderr').default(env.logLevel ?? 'info').choices(['fatal', 'error', 'warn', 'info', 'debug', 'silent']).env('SANDBOX_LOG_LEVEL'))
    .addOption(mcpPageSizeOption())
    .addOption(new Option('--key-header <name>', 'also read an API key from this header, exactly like X-Service-Key (repeatable; e.g. the real client\'s header name)')
      .argParser(keyHeader).default([]).env('SANDBOX_KEY_HEADERS'))
    .option('--reset', 'drop what the state file holds and start the world afresh')
    .option('--force-reset', 'the same as --reset (also over a state file whose log is lost)')
    .option('--json', 'print the start-up banner as one JSON line')
    .action((flags: ServeFlags, command: Command) => runServe({ ...flags, worldGiven: command.getOptionValueSource('world') !== 'default' }))
}

interface ServeFlags {
  host: string
  port: string | number
  apiPort: string | number
  state: string
  world: string
  seed?: number
  adminToken?: string
  openControlPlane?: boolean
  journalLimit: number
  journalFile?: string
  journalMaxBytes: number
  durability: Durability
  logLevel: string
  mcpPageSize?: number
  keyHeader: string[]
  json?: boolean
  reset?: boolean
  forceReset?: boolean
  /** `--world` (or SANDBOX_WORLD) was given, not defaulted. */
  worldGiven?: boolean
}

async function runServe(flags: ServeFlags): Promise<void> {
  if (flags.openControlPlane && flags.adminToken) fail('--open-control-plane and --admin-token (or SANDBOX_ADMIN_TOKEN) contradict each other: give one or the other.')
  if (!isLoopback(flags.host) && flags.openControlPlane) {
    fail(`Refusing to bind ${flags.host} with an open control plane: anyone on the network could approve held writes, reset the world or mint keys. Drop --open-control-plane, or bind 127.0.0.1.`)
  }
  applyHeapPolicy()
  // A start that fails before it listens must leave an empty folder empty, or the next start says "resumed" (issue 37).
  const created = flags.state === 'memory' ? () => [] : newStateFiles(flags.state)
  const logger = pino({ level: flags.logLevel }, pino.destination(2))
  const sandbox = await buildSandbox({
    state: flags.state, world: flags.world, seed: flags.seed, adminToken: flags.adminToken, openControlPlane: flags.openControlPlane,
    journalLimit: flags.journalLimit, journalFile: flags.journalFile ?? null, journalMaxBytes: flags.journalMaxBytes, logger, durability: flags.durability,
    mcpPageSize: flags.mcpPageSize, reset: flags.reset || flags.forceReset, keyHeaders: flags.keyHeader,
  }).catch((error: Error) => {
    // A world that fails to load leaves nothing behind either (the store was closed by buildSandbox).
    for (const file of created()) rmSync(file, { recursive: true, force: true })
    return fail(error.message)
  })
  const held = sandbox.ctx.deps.store.meta().world
  // Asking for a world and silently getting another one is the worst answer (issue 18): refuse, name the way out.
  if (sandbox.resumed && flags.worldGiven && held !== flags.world) {
    await sandbox.close()
    fail(`${flags.state} already holds world "${held}"; resume it without --world, pass --reset to start world "${flags.world}" afresh (dropping that state), or use another --state file.`)
  }
  const failStart = async (message: string, ...open: Array<{ close(): Promise<void> }>): Promise<never> => {
    await Promise.all(open.map((server) => server.close().catch(() => undefined)))
    await sandbox.close().catch(() => undefined)
    for (const file of created()) rmSync(file, { recursive: true, force: true })
    return fail(message)
  }
  const base = await listen(sandbox.baseListener, flags.host, Number(flags.port)).catch((e) => failStart(portMessage(e, flags.port, '--port')))
  const api = await listen(sandbox.apiListener, flags.host, Number(flags.apiPort)).catch((e) => failStart(portMessage(e, flags.apiPort, '--api-port'), base))
  sandbox.announce({ base: base.url, api: api.url })
  const meta = sandbox.ctx.deps.store.meta()
  const tokenFile = publishToken(flags, sandbox.adminToken)
  const info: BannerInfo = {
    base_url: base.url, api_url: api.url, state: flags.state === 'memory' ? 'memory' : flags.state,
    resumed: sandbox.resumed, world: meta.world, seed: meta.seed,
    control_plane: sandbox.adminToken === null ? 'open' : 'token', admin_token: sandbox.adminToken, admin_token_file: tokenFile,
    console_url: sandbox.adminToken === null ? `${base.url}/_sandbox/console/` : consoleLink(base.url, sandbox.ctx.adminGate.sessions.issueTicket()),
    keys: sandbox.ctx.worlds.keys().map(({ value: _value, ...k }) => k),
  }
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    try {
      await Promise.all([base.close(), api.close()])
      await sandbox.close()
      if (tokenFile) removeAdminTokenFile(tokenFile, sandbox.adminToken)
      // One human line on Ctrl-C; the JSON log line only for --json callers, who parse stderr too.
      if (flags.json) logger.info('state flushed; bye')
      else process.stderr.write(`adops-sandbox: stopped; ${flags.state === 'memory' ? 'memory state discarded' : `state saved in ${flags.state}`}.\n`)
      process.exit(0)
    } catch (error) {
      fail(`could not flush state: ${(error as Error).message}`)
    }
  }
  // Handlers first: a script may signal as soon as it has read the banner.
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  process.stdout.write(flags.json ? `${JSON.stringify(info)}\n` : renderBanner(info))
}

/**
 * Writes a generated admin token next to the state file (mode 0600) for local scripts and the
 * CLIs; a token the operator gave is not written, and a stale file from an earlier start is removed.
 */
function publishToken(flags: ServeFlags, token: string | null): string | null {
  const file = adminTokenFile(flags.state)
  if (!file) return null
  const generated = token !== null && !flags.adminToken
  try {
    if (generated) writeAdminTokenFile(file, token)
    else removeAdminTokenFile(file, null)
  } catch (error) {
    fail(`could not write the admin token file ${file}: ${(error as Error).message}`)
  }
  return generated ? file : null
}

/**
 * What a failed start removes: the state folder when it is new, else a list of what the state file's
 * name already spells there (the file, its log, lock and owner record), read again on failure.
 */
function newStateFiles(state: string): () => string[] {
  const dir = dirname(resolve(state))
  if (!existsSync(dir)) return () => [dir]
  const name = basename(state)
  const mine = () => readdirSync(dir).filter((f) => f === name || f.startsWith(`${name}.`))
  const before = new Set(mine())
  // A state that existed before is the user's: nothing of it is removed.
  if (before.has(name)) return () => []
  return () => mine().filter((f) => !before.has(f)).map((f) => join(dir, f))
}

function portMessage(error: NodeJS.ErrnoException, port: string | number, flag: string): string {
  if (error.code === 'EADDRINUSE') return `Port ${port} is already in use. Stop the other process, or pass ${flag} 0 for a free port.`
  return error.message
}

function fail(message: string): never {
  process.stderr.write(`adops-sandbox: ${message}\n`)
  process.exit(2)
}

function port(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535')
  return n
}

// A journal of 0 or fewer exchanges or bytes would keep nothing to assert on: refused at start.
function positive(value: string): number {
  const n = integer(value)
  if (n < 1) throw new InvalidArgumentError('must be a positive integer')
  return n
}

// Repeatable: each use adds a name (commander hands back the list so far, or the env/default list).
function keyHeader(value: string, previous: string[] | undefined): string[] {
  const names = value.split(',').map((v) => v.trim()).filter(Boolean)
  try {
    keyHeadersOf(names)
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message)
  }
  return [...(previous ?? []), ...names]
}

function integer(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n)) throw new InvalidArgumentError('must be an integer')
  return n
}
