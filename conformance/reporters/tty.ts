import type { Reporter, RunEvent, RunResult } from '../runner.js'
import type { Secrets } from '../secrets.js'
import type { ScenarioResult } from '../types.js'
import { closingLine, diffText, firstFailure, transcript } from './format.js'

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

/**
 * Live progress for people: one line per finished scenario, a spinner with a progress bar on a
 * TTY, failures with the transcript and a diff of expected vs given, then the summary.
 */
export function ttyReporter(out: NodeJS.WriteStream = process.stdout, options: { verbose?: boolean } = {}): Reporter {
  const tty = Boolean(out.isTTY)
  const color = (code: string, text: string) => (tty ? `\x1b[${code}m${text}\x1b[0m` : text)
  let total = 0
  let done = 0
  const running = new Set<string>()
  let frame = 0
  let timer: NodeJS.Timeout | null = null
  const clear = () => tty && out.write('\r\x1b[2K')
  const status = () => {
    if (!tty || total === 0) return
    const width = 24
    const filled = Math.round((done / total) * width)
    clear()
    out.write(`${FRAMES[frame++ % FRAMES.length]} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${done}/${total} ${[...running].slice(0, 3).join(', ')}`.slice(0, (out.columns ?? 100) - 1))
  }
  const line = (text: string) => {
    clear()
    out.write(`${text}\n`)
    status()
  }
  return {
    onEvent(event: RunEvent, secrets: Secrets) {
      if (event.type === 'run-start') {
        total = event.total
        line(color('1', `conform: ${event.total} scenarios against ${event.target} (${event.jobs} at a time)`))
        if (tty) timer = setInterval(status, 80).unref()
      } else if (event.type === 'scenario-start') {
        running.add(event.id)
      } else if (event.type === 'scenario-end') {
        running.delete(event.result.id)
        done++
        line(render(event.result, secrets, color, options.verbose === true))
      } else if (event.type === 'run-end') {
        if (timer) clearInterval(timer)
        clear()
        summary(event.run, (t) => out.write(`${t}\n`), color)
      }
    },
  }
}

function render(r: ScenarioResult, secrets: Secrets, color: (c: string, t: string) => string, verbose: boolean): string {
  const time = color('2', `${r.duration_ms} ms`)
  if (r.outcome === 'skipped') return `${color('33', '–')} ${r.id} ${color('2', `skipped: ${r.reason}`)}`
  if (r.outcome === 'passed' && !r.baseline) return `${color('32', '✓')} ${r.id} ${time}${verbose ? `\n${transcript(r.steps, secrets, '    ')}` : ''}`
  if (r.baseline?.stale) return `${color('31', '✗')} ${r.id} passed but is listed in the baseline (stale entry: ${r.baseline.reason})`
  if (r.baseline) return `${color('33', '○')} ${r.id} expected failure (baseline: ${r.baseline.reason})`
  const failed = firstFailure(r.steps)
  const diff = failed ? diffText(failed, secrets) : ''
  return [
    `${color('31', '✗')} ${r.id} ${time} — ${r.title}`,
    `    ${r.file}`,
    transcript(r.steps, secrets, '    '),
    diff ? color('2', diff) : '',
  ].filter(Boolean).join('\n')
}

function summary(run: RunResult, write: (t: string) => void, color: (c: string, t: string) => string): void {
  const s = run.summary
  const cov = run.coverage
  write('')
  if (cov.uncovered.length && cov.gated) write(color('31', `rule coverage ${cov.percent}%: no scenario covers ${cov.uncovered.join(', ')}`))
  else if (cov.uncovered.length) write(color('2', `rule coverage ${cov.percent}% of the loaded scenarios (${cov.uncovered.length} rule ids uncovered; --coverage enforces it)`))
  else write(`rule coverage ${cov.percent}% (${cov.rules.filter((r) => !r.excluded).length} rules; excluded: ${cov.rules.filter((r) => r.excluded).map((r) => r.id).join(' ') || 'none'})`)
  write(`${s.skipped} skipped, ${s.expected_failures} expected failures (baseline), ${s.stale} stale baseline entries, ${s.violations} contract violations, ${(s.duration_ms / 1000).toFixed(2)} s`)
  write(color(s.failed || s.stale ? '31' : '32', closingLine(s)))
}
