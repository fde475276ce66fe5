import { EXIT } from '../../conformance/exit-codes.js'
import { readRecordingFile, writeRecordingFile } from '../../conformance/record/recording-file.js'
import { startReplayer } from '../../conformance/record/replayer.js'
import type { RecordFlags } from './record.js'
import { replayBanner } from './record-banner.js'
import type { RecordIo } from './record-run.js'
import { RecordExit, probe, targetsOf } from './record-target.js'

/**
 * `adops-sandbox record --replay DIR [--capture-on-miss --target-base URL --target-api URL]`
 * (issue 38): serves `DIR/recording.json` on both hosts until stopped; with capture, rewrites it
 * with the exchanges it forwarded appended. Exit 0, 2 usage (no recording), 3 target unreachable.
 */
export async function runReplayCli(flags: RecordFlags, io: RecordIo): Promise<number> {
  const dir = flags.replay!
  if (flags.reporter?.length) throw new RecordExit(EXIT.usage, '--reporter checks a new recording; with --replay, run `adops-sandbox conform DIR/session.yaml --reporter …` instead')
  if (!flags.captureOnMiss && (flags.targetBase || flags.targetApi)) throw new RecordExit(EXIT.usage, '--replay forwards nothing without --capture-on-miss: add it, or drop --target-base/--target-api')
  const capture = flags.captureOnMiss ? targetsOf(flags, '--capture-on-miss needs') : null
  const recording = await readRecordingFile(dir).catch((error: Error) => {
    throw new RecordExit(EXIT.usage, error.message)
  })
  if (capture) await probe([capture.targetBase, capture.targetApi])
  const progress = io.stderr.isTTY === true && !flags.json
  const replayer = await startReplayer({
    recording, host: flags.host, port: flags.port, apiPort: flags.apiPort, capture: capture ?? undefined,
    onAnswer: (c) => {
      if (progress) io.stderr.write(`\rreplay: ${c.replayed} answered from the recording, ${c.missed} missed, ${c.captured} captured  `)
    },
  }).catch((error: NodeJS.ErrnoException) => {
    throw new RecordExit(EXIT.usage, error.code === 'EADDRINUSE' ? `a port is already in use (${error.message}); pass --port 0 --api-port 0 for free ones` : error.message)
  })
  const info = { mode: 'replay', base_url: replayer.baseUrl, api_url: replayer.apiUrl, mcp: `${replayer.baseUrl}/mcp`, recording: dir, exchanges: recording.exchanges.length, capture_on_miss: Boolean(capture) }
  io.stdout.write(flags.json ? `${JSON.stringify(info)}\n` : replayBanner(info))
  await io.stop
  await replayer.close()
  if (progress) io.stderr.write('\n')
  const counts = replayer.counts
  const file = counts.captured > 0 ? await writeRecordingFile(dir, replayer.recording()) : null
  if (flags.json) io.stdout.write(`${JSON.stringify({ ...counts, files: file ? { recording: file } : null })}\n`)
  else {
    io.stdout.write(`replay: ${counts.replayed} answered from the recording, ${counts.missed} not recorded, ${counts.captured} captured\n`)
    if (file) io.stdout.write(`wrote ${file}    ${counts.captured} captured exchange${counts.captured === 1 ? '' : 's'} appended\n`)
  }
  return EXIT.passed
}
