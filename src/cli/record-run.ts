import { EXIT } from '../../conformance/exit-codes.js'
import { Placeholders } from '../../conformance/record/placeholders.js'
import { startRecorder } from '../../conformance/record/recorder.js'
import { writeRecording } from '../../conformance/record/write-recording.js'
import { fileReporter } from '../../conformance/reporters/files.js'
import type { Reporter } from '../../conformance/runner.js'
import type { RecordFlags } from './record.js'
import { recordBanner, writtenLines } from './record-banner.js'
import { runReplayCli } from './replay-run.js'
import { RecordExit, causeOf, probe, shown, targetsOf } from './record-target.js'

/** Where `record` writes and how it learns it must stop (SIGINT/SIGTERM in the CLI, a promise in tests). */
export interface RecordIo {
  stop: Promise<unknown>
  stdout: NodeJS.WritableStream & { isTTY?: boolean }
  stderr: NodeJS.WritableStream & { isTTY?: boolean }
}

/**
 * `adops-sandbox record` (issue 38): probes the target, proxies both hosts until stopped, then
 * writes the recording and, with `--reporter`, replays the written session once on the recorded
 * world as a check. Exit 0 written (and the check passed), 1 the check failed, 2 usage, 3 unreachable.
 */
export async function runRecordCli(flags: RecordFlags, io: RecordIo): Promise<number> {
  try {
    if (flags.replay !== undefined) return await runReplayCli(flags, io)
    return await record(flags, io)
  } catch (error) {
    if (!(error instanceof RecordExit)) throw error
    io.stderr.write(`record: ${error.message}\n`)
    return error.code
  }
}

async function record(flags: RecordFlags, io: RecordIo): Promise<number> {
  const { targetBase, targetApi } = targetsOf(flags, 'record needs')
  const reporters = reportersOf(flags.reporter)
  await probe([targetBase, targetApi])
  const progress = io.stderr.isTTY === true && !flags.json
  const recorder = await startRecorder({
    targetBase, targetApi, host: flags.host, port: flags.port, apiPort: flags.apiPort, maxExchanges: flags.maxExchanges,
    onFull: (kept) => io.stderr.write(`${progress ? '\n' : ''}record: ${kept} exchanges kept, the limit: later requests are forwarded but not recorded (--max-exchanges N to keep more)\n`),
    onExchange: (_x, count) => {
      if (progress) io.stderr.write(`\rrecord: ${count} request${count === 1 ? '' : 's'} recorded  `)
    },
    onUnreachable: (request, error) => io.stderr.write(`${progress ? '\n' : ''}record: the target did not answer ${request.method} ${request.path} (${causeOf(error)}); the client got 502 TARGET_UNREACHABLE\n`),
  }).catch((error: NodeJS.ErrnoException) => {
    throw new RecordExit(EXIT.usage, error.code === 'EADDRINUSE' ? `a port is already in use (${error.message}); pass --port 0 --api-port 0 for free ones` : error.message)
  })
  const info = { mode: 'record', base_url: recorder.baseUrl, api_url: recorder.apiUrl, mcp: `${recorder.baseUrl}/mcp`, out: flags.out, target_base: shown(targetBase), target_api: shown(targetApi) }
  io.stdout.write(flags.json ? `${JSON.stringify(info)}\n` : recordBanner(info))
  await io.stop
  await recorder.close()
  if (progress) io.stderr.write('\n')
  const exchanges = recorder.exchanges
  if (exchanges.length === 0) {
    io.stdout.write(flags.json ? `${JSON.stringify({ requests: 0, files: null })}\n` : 'record: no request was recorded; nothing written\n')
    return EXIT.passed
  }
  const placeholders = new Placeholders(flags.keyHeader ?? [])
  for (const exchange of exchanges) placeholders.credentialOf(exchange)
  const files = await writeRecording(exchanges, { out: flags.out, target: `${shown(targetBase)} + ${shown(targetApi)}`, placeholders, keyHeaders: flags.keyHeader })
  if (!flags.json) io.stdout.write(writtenLines(files, exchanges.length, flags.out))
  const check = reporters.length ? await checkSession(files.scenario, reporters, placeholders.values()) : null
  if (recorder.dropped && !flags.json) io.stdout.write(`record: ${recorder.dropped} later request${recorder.dropped === 1 ? ' was' : 's were'} forwarded but not recorded (--max-exchanges)\n`)
  if (flags.json) io.stdout.write(`${JSON.stringify({ requests: exchanges.length, ...(recorder.dropped ? { not_recorded: recorder.dropped } : {}), files, ...(check ? { check } : {}) })}\n`)
  else if (check) io.stdout.write(check.passed ? 'check: the session replays green on the recorded world\n' : `check: the session does not replay on the recorded world: ${check.reason}\n`)
  return check && !check.passed ? EXIT.failed : EXIT.passed
}

/** The written session replayed once against an in-process sandbox on the recorded world, rendered by the reporters. */
async function checkSession(scenario: string, reporters: Reporter[], secrets: string[]): Promise<{ passed: boolean; reason?: string }> {
  const { runScenarios } = await import('../../conformance/runner.js')
  const run = await runScenarios({ paths: [scenario], baseline: null, reporters, secrets })
  const failed = run.scenarios.find((s) => s.outcome !== 'passed')
  return failed ? { passed: false, reason: (failed.reason ?? failed.outcome).split('\n')[0] } : { passed: true }
}

function reportersOf(specs: string[] | undefined): Reporter[] {
  try {
    return (specs ?? []).map(fileReporter)
  } catch (error) {
    throw new RecordExit(EXIT.usage, `--reporter: ${(error as Error).message}`)
  }
}
