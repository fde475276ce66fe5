import type { WrittenRecording } from '../../conformance/record/write-recording.js'

export interface RecordBannerInfo {
  mode: string
  base_url: string
  api_url: string
  mcp: string
  out: string
  target_base: string
  target_api: string
}

export interface ReplayBannerInfo {
  mode: string
  base_url: string
  api_url: string
  mcp: string
  recording: string
  exchanges: number
  capture_on_miss: boolean
}

/** The human banner of `record`, laid out like `serve`'s. */
export function recordBanner(info: RecordBannerInfo): string {
  return lines([
    `  adops-sandbox record  → ${info.target_base} + ${info.target_api}`,
    '',
    `  base_url   ${info.base_url}    forwards to ${info.target_base} (dispatcher, keys, MCP)`,
    `  api_url    ${info.api_url}    forwards to ${info.target_api} (/v1)`,
    `  mcp        ${info.mcp}    hosted MCP, forwarded`,
    `  out        ${info.out}    world.yaml, session.yaml, recording.json, catalog.json (if MCP tools were listed)`,
    '',
    '  Point your client at base_url and api_url. Ctrl-C stops and writes the recording;',
    '  keys and tokens are written as placeholders (recorded_1, …), never as values.',
  ])
}

/** The human banner of `record --replay`. */
export function replayBanner(info: ReplayBannerInfo): string {
  return lines([
    `  adops-sandbox record --replay  ${info.recording} (${info.exchanges} exchanges)${info.capture_on_miss ? ', capturing misses' : ''}`,
    '',
    `  base_url   ${info.base_url}    recorded answers (dispatcher, keys, MCP)`,
    `  api_url    ${info.api_url}    recorded answers (/v1)`,
    `  mcp        ${info.mcp}`,
    '',
    '  The n-th identical request gets the n-th recorded answer; the last one repeats.',
    info.capture_on_miss
      ? '  A request the recording lacks is forwarded once and appended; Ctrl-C rewrites recording.json.'
      : '  A request the recording lacks is 404 NOT_RECORDED (--capture-on-miss to forward it). Ctrl-C stops.',
  ])
}

/** One human line per file written. */
export function writtenLines(files: WrittenRecording, requests: number, out: string): string {
  return [
    `wrote ${files.world}    the world seen (load: adops-sandbox serve --world ${files.world})`,
    `wrote ${files.scenario}    the ${requests} calls as a scenario (run: adops-sandbox conform ${files.scenario})`,
    ...(files.catalog ? [`wrote ${files.catalog}    the MCP tools listed`] : []),
    `wrote ${files.recording}    the exchanges, placeholders for keys (serve: adops-sandbox record --replay ${out})`,
    '',
  ].join('\n')
}

function lines(body: string[]): string {
  return `${['', ...body, ''].join('\n')}\n`
}
