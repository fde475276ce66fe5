import { createWriteStream, mkdirSync } from 'node:fs'
import type { WriteStream } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { Reporter, RunEvent } from '../runner.js'
import type { Secrets } from '../secrets.js'
import { junitXml } from './junit.js'
import { htmlReport } from './html.js'

async function write(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true })
  await writeFile(file, text)
}

/** The whole run as one JSON document (also the input of `conform merge`). */
export function jsonReporter(file: string): Reporter {
  return { finish: (run, secrets) => write(file, `${JSON.stringify(secrets.redactDeep(run), null, 2)}\n`) }
}

/** Every event as one JSON line, written as the run goes (a crash leaves the lines so far). */
export function ndjsonReporter(file: string): Reporter {
  let stream: WriteStream | null = null
  return {
    onEvent(event: RunEvent, secrets: Secrets) {
      if (!stream) {
        mkdirSync(dirname(file), { recursive: true })
        stream = createWriteStream(file)
      }
      const line = event.type === 'run-end'
        ? { type: 'run-end', summary: event.run.summary, coverage: { percent: event.run.coverage.percent, uncovered: event.run.coverage.uncovered } }
        : event
      stream.write(`${JSON.stringify(secrets.redactDeep(line))}\n`)
    },
    finish: () => new Promise<void>((resolve) => (stream ? stream.end(resolve) : resolve())),
  }
}

export function junitReporter(file: string): Reporter {
  return { finish: (run, secrets) => write(file, junitXml(run, secrets)) }
}

export function htmlReporter(file: string): Reporter {
  return { finish: (run, secrets) => write(file, htmlReport(run, secrets)) }
}

const DEFAULT_FILES: Record<string, string> = {
  json: 'conform-report/report.json',
  ndjson: 'conform-report/events.ndjson',
  junit: 'conform-report/junit.xml',
  html: 'conform-report/report.html',
}

/** `json`, `junit:out/junit.xml`, … → a reporter; unknown names are a usage error. */
export function fileReporter(spec: string): Reporter {
  const [name, ...rest] = spec.split(':')
  const file = rest.join(':') || DEFAULT_FILES[name]
  switch (name) {
    case 'json': return jsonReporter(file)
    case 'ndjson': return ndjsonReporter(file)
    case 'junit': return junitReporter(file)
    case 'html': return htmlReporter(file)
    default: throw new Error(`unknown reporter \`${name}\`; use json, ndjson, junit or html (optionally name:file)`)
  }
}
