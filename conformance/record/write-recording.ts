import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { stringify } from 'yaml'
import { jsonOrText } from '../../src/support/json-or-text.js'
import type { Placeholders } from './placeholders.js'
import type { Recorded } from './recorder.js'
import { storedOf, writeRecordingFile } from './recording-file.js'
import { scenarioOf } from './scenario-of.js'
import { worldOf } from './world-of.js'

export interface WrittenRecording {
  world: string
  scenario: string
  /** The MCP `tools/list` snapshot, when the client listed tools. */
  catalog: string | null
  /** The exchanges with placeholders, what `record --replay` serves. */
  recording: string
}

/**
 * The files of a recording (issue 38): `world.yaml` (load with `serve --world` or a scenario's
 * `world:`), `session.yaml` (the client's calls as a scenario on that world) and, if the client
 * listed MCP tools, `catalog.json`; and `recording.json` (the exchanges, served by `record --replay`).
 * Every text passes `Placeholders.scrub` on its way out.
 */
export async function writeRecording(exchanges: readonly Recorded[], options: { out: string; target: string; placeholders: Placeholders; keyHeaders?: string[] }): Promise<WrittenRecording> {
  const { out, placeholders } = options
  await mkdir(out, { recursive: true })
  const write = async (name: string, text: string) => {
    const file = join(out, name)
    await writeFile(file, placeholders.scrub(text))
    return file
  }
  const { world, keyNames, stableIds } = worldOf(exchanges, placeholders, { target: options.target })
  // The world's key values are the sandbox's own (fresh, `worldOf`): put in after the scrub, which would mask them.
  const values = (world.keys as Array<{ value: string }>).map((k, i) => [k.value, (k.value = `KEY_VALUE_${i}_`)] as const)
  let worldText = placeholders.scrub(`# Recorded by adops-sandbox record; keys are placeholders with sandbox values.\n${stringify(world, { lineWidth: 0 })}`)
  for (const [value, marker] of values) worldText = worldText.replace(marker, value)
  const worldFile = join(out, 'world.yaml')
  await writeFile(worldFile, worldText)
  const scenario = scenarioOf(exchanges, placeholders, { world: './world.yaml', keyNames, stableIds, title: `The calls recorded from ${options.target} (${exchanges.length} requests), replayed on the recorded world` })
  const scenarioFile = await write('session.yaml', `# Recorded by adops-sandbox record: replay with \`adops-sandbox conform ${join(out, 'session.yaml')}\`.\n${scenarioYaml(scenario)}`)
  const tools = toolsListed(exchanges)
  const catalog = tools.length ? await write('catalog.json', `${JSON.stringify({ tools }, null, 2)}\n`) : null
  const stored = exchanges.map((x) => storedOf(x, placeholders))
  const recording = await writeRecordingFile(out, { recorded_from: options.target, key_headers: options.keyHeaders ?? [], placeholders: placeholders.values().length, exchanges: stored })
  return { world: worldFile, scenario: scenarioFile, catalog, recording }
}

/** Steps beyond which a scenario is written one JSON step per line (still YAML): block YAML of thousands of steps takes a minute. */
export const BLOCK_YAML_STEPS = 200

/** The scenario as block YAML, or when long, its header as YAML and each step as one flow (JSON) line: bench/README.md "record". */
function scenarioYaml(scenario: Record<string, unknown>): string {
  const steps = scenario.steps as unknown[]
  if (steps.length <= BLOCK_YAML_STEPS) return stringify(scenario, { lineWidth: 0 })
  const { steps: _steps, ...header } = scenario
  return `${stringify(header, { lineWidth: 0 })}steps:\n${steps.map((step) => `  - ${JSON.stringify(step)}\n`).join('')}`
}

/** Every tool a `tools/list` answer on `/mcp` named, pages in order, each once. */
function toolsListed(exchanges: readonly Recorded[]): unknown[] {
  const tools = new Map<string, unknown>()
  for (const exchange of exchanges) {
    if (exchange.path !== '/mcp' || exchange.method !== 'POST') continue
    const request = jsonOrText(exchange.body) as { method?: string } | null
    if (request?.method !== 'tools/list') continue
    const answer = rpcAnswer(exchange.responseBody) as { result?: { tools?: Array<{ name: string }> } } | null
    for (const tool of answer?.result?.tools ?? []) if (!tools.has(tool.name)) tools.set(tool.name, tool)
  }
  return [...tools.values()]
}

/** A JSON-RPC answer, sent as JSON or as the `data:` line of a server-sent event. */
function rpcAnswer(text: string): unknown {
  const data = text.split('\n').find((line) => line.startsWith('data: '))
  return jsonOrText(data ? data.slice('data: '.length) : text)
}
