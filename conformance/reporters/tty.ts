import pc from 'picocolors'
import type { Reporter, RunEvent, RunResult } from '../runner.js'
import type { Secrets } from '../secrets.js'
import type { ScenarioResult } from '../types.js'
import { closingLine, diffText, firstFailure, transcript } from './format.js'
import { colorEnabled } from './color.js'

type Colors = ReturnType<typeof pc.createColors>

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']

/** The marks of the terminal report; a known failure is not a red ✗ (issue 15). */
export const MARKS = { passed: '✓', failed: '✗', skipped: '–', known: '◌', stale: '!' } as const

/**
 * Live progress for people: one line per finished scenario, a spinner with a progress bar on a
 * TTY, failures with the transcript and a diff of expected vs given, known failures (baseline) as
 * one collapsed line with the reason, then stale baseline entries, coverage and the summary.
 * Colour follows NO_COLOR / FORCE_COLOR, else whether `out` is a terminal.
 */
export function ttyReporter(out: NodeJS.WriteStream = process.stdout, options: { verbose?: boolean; env?: NodeJS.ProcessEnv } = {}): Reporter {
  const tty = Boolean(out.isTTY)
  const c = pc.createColors(colorEnabled(out, options.env ?? process.env))
  let total = 0
  let done = 0
  const running = new Set<string>()
  let frame = 0
  let timer: NodeJS.Timeout | null = null
  const clear = () => {
    if (!tty) return
    out.clearLine?.(0)
    out.cursorTo?.(0)
  }
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
        line(c.bold(`conform: ${event.total} scenarios against ${event.target} (${event.jobs} at a time)`))
        if (event.resets) line(c.yellow(resetWarning(event.resets, event.copies === true)))
        if (tty) timer = setInterval(status, 80).unref()
      } else if (event.type === 'scenario-start') {
        running.add(event.id)
      } else if (event.type === 'scenario-end') {
        running.delete(event.result.id)
        done++
        line(renderResult(event.result, secrets, c, options.verbose === true))
      } else if (event.type === 'run-end') {
        if (timer) clearInterval(timer)
        clear()
        summary(event.run, (t) => out.write(`${t}\n`), c)
      }
    },
  }
}

/** One scenario's lines: a mark, the id and what a reader needs (the transcript only for a real failure). */
export function renderResult(r: ScenarioResult, secrets: Secrets, c: Colors, verbose = false): string {
  const time = c.dim(`${r.duration_ms} ms`)
  if (r.outcome === 'skipped') return `${c.yellow(MARKS.skipped)} ${r.id} ${c.dim(`skipped: ${r.reason}`)}`
  if (r.baseline?.stale) return `${c.red(MARKS.stale)} ${r.id} ${c.red('stale baseline entry')}: passed, but the baseline lists it as a known failure (${r.baseline.reason}); remove the entry`
  if (r.baseline) return `${c.magenta(MARKS.known)} ${r.id} ${c.magenta('known failure')} ${c.dim(`(baseline: ${r.baseline.reason})`)}`
  if (r.outcome === 'passed') return `${c.green(MARKS.passed)} ${r.id} ${time}${verbose ? `\n${transcript(r.steps, secrets, '    ')}` : ''}`
  const failed = firstFailure(r.steps)
  const diff = failed ? diffText(failed, secrets) : ''
  return [
    `${c.red(MARKS.failed)} ${r.id} ${time} — ${r.title}`,
    `    ${r.file}`,
    transcript(r.steps, secrets, '    '),
    diff ? c.dim(diff) : '',
  ].filter(Boolean).join('\n')
}

function summary(run: RunResult, write: (t: string) => void, c: Colors): void {
  const s = run.summary
  write('')
  const stale = run.scenarios.filter((r) => r.baseline?.stale)
  if (stale.length) write(c.red(`stale baseline entries (these pass now; remove them from the baseline): ${stale.map((r) => r.id).join(', ')}`))
  for (const text of coverageLines(run, c)) write(text)
  if (s.passed + s.failed + s.expected_failures + s.stale === 0) {
    write(c.yellow(`nothing ran: ${run.scenarios.length} selected, ${s.skipped} skipped (exit 5; --allow-empty accepts an empty run)`))
  }
  write(`${s.skipped} skipped, ${s.expected_failures} expected failures (baseline), ${s.stale} stale baseline entries, ${s.violations} contract violations, ${(s.duration_ms / 1000).toFixed(2)} s`)
  write((s.failed || s.stale ? c.red : c.green)(closingLine(s)))
}

/** Coverage counts per state; under `--coverage`, the ids that keep the gate closed, by state. */
function coverageLines(run: RunResult, c: Colors): string[] {
  const cov = run.coverage
  const st = cov.states
  const applicable = cov.rules.filter((r) => !r.excluded && r.state !== 'not applicable').length
  const excluded = cov.rules.filter((r) => r.excluded).map((r) => r.id)
  const na = st['not applicable'] ?? []
  const head = `rule coverage ${cov.percent}%: ${st.passing.length} of ${applicable} rule ids passing in this run, ${st.failing.length} failing, ${st['not run'].length} not run (deselected or skipped), ${st['not covered'].length} not covered`
    + `${na.length ? `; not applicable (the target lacks a capability, not counted): ${na.join(' ')}` : ''}${excluded.length ? `; excluded: ${excluded.join(' ')}` : ''}`
  if (cov.deferred) return [`${head} (this shard's part: the coverage gate runs at \`conform merge --coverage\`)`]
  if (!cov.uncovered.length) return [head]
  if (!cov.gated) return [c.dim(`${head} (--coverage requires every applicable id passing)`)]
  const detail = (['failing', 'not run', 'not covered'] as const).filter((k) => st[k].length).map((k) => `  ${k}: ${st[k].join(', ')}`)
  return [c.red(head), ...detail.map((d) => c.red(d))]
}

/** What a --target run does to the state of the sandbox it runs against (issues 18, 19). */
function resetWarning(url: string, copies: boolean): string {
  const state = 'the state it holds now (keys, campaigns, audit, journal)'
  if (!copies) return `warning: each scenario resets the sandbox at ${url} to its world: ${state} is replaced`
  return `warning: scenarios that reset, script faults or read the journal reset the sandbox at ${url} to their world, the others run in copies of their world beside it: ${state} may be replaced`
}
