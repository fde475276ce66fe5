import { describe, expect, it } from 'vitest'
import { Writable } from 'node:stream'
import { Secrets } from '../secrets.js'
import type { RunResult } from '../runner.js'
import type { ScenarioResult } from '../types.js'
import { computeCoverage } from '../coverage.js'
import { summarize } from '../runner.js'
import { MARKS, ttyReporter } from './tty.js'
import { colorEnabled } from './color.js'

const failingStep = { index: 0, label: 'request GET /v1/me', kind: 'request', outcome: 'failed' as const, reason: 'status: expected 200, got 401', attempts: 1, duration_ms: 3, violations: [], notes: [], diff: [{ path: 'status', expected: 200, given: 401 }] }
const scenario = (id: string, outcome: ScenarioResult['outcome'], baseline?: ScenarioResult['baseline']): ScenarioResult =>
  ({ id, file: `scenarios/${id}.yaml`, title: `${id} title`, covers: ['KEY-01'], tags: [], outcome, steps: outcome === 'failed' ? [failingStep] : [], duration_ms: 5, ...(baseline ? { baseline } : {}) })

/** Renders a whole run through the reporter into a string, as a non-TTY stream. */
function render(results: ScenarioResult[], env: NodeJS.ProcessEnv = {}, isTTY = false): string {
  let text = ''
  const out = Object.assign(new Writable({ write: (chunk, _e, done) => ((text += String(chunk)), done()) }), { isTTY }) as unknown as NodeJS.WriteStream
  const reporter = ttyReporter(out, { env })
  const secrets = new Secrets()
  const summary = summarize(results, 10)
  const run: RunResult = { scenarios: results, summary, coverage: computeCoverage(results, results), target: 't', exitCode: 0 }
  reporter.onEvent!({ type: 'run-start', total: results.length, target: 't', jobs: 1 }, secrets)
  for (const result of results) reporter.onEvent!({ type: 'scenario-end', result }, secrets)
  reporter.onEvent!({ type: 'run-end', run }, secrets)
  return text
}

describe('the terminal report', () => {
  it('shows a known failure as one collapsed line with its own mark and the baseline reason, not a red ✗ with a transcript', () => {
    const text = render([scenario('known.one', 'failed', { reason: 'SDK 0.1.1 sends the alias', stale: false })])
    const lines = text.split('\n').filter((l) => l.includes('known.one'))
    expect(lines).toEqual([`${MARKS.known} known.one known failure (baseline: SDK 0.1.1 sends the alias)`])
    expect(text).not.toContain(MARKS.failed)
    expect(text).not.toContain('request GET /v1/me')
  })

  it('lists a stale baseline entry as such, on its line and in the summary', () => {
    const text = render([scenario('fixed.now', 'passed', { reason: 'was broken', stale: true })])
    expect(text).toContain(`${MARKS.stale} fixed.now stale baseline entry: passed, but the baseline lists it as a known failure (was broken); remove the entry`)
    expect(text).toMatch(/^stale baseline entries \(these pass now; remove them from the baseline\): fixed\.now$/m)
  })

  it('shows a real failure with the transcript and the diff', () => {
    const text = render([scenario('real.fail', 'failed')])
    expect(text).toContain(`${MARKS.failed} real.fail 5 ms — real.fail title`)
    expect(text).toMatch(/FAIL request GET \/v1\/me/)
    expect(text).toMatch(/- expected 200\n\s+\+ given\s+401/)
  })

  it('says when nothing ran', () => {
    expect(render([scenario('only.skip', 'skipped')])).toMatch(/^nothing ran: 1 selected, 1 skipped \(exit 5; --allow-empty accepts an empty run\)$/m)
  })

  it.each<[string, NodeJS.ProcessEnv, boolean, boolean]>([
    ['a terminal', {}, true, true],
    ['a pipe', {}, false, false],
    ['NO_COLOR on a terminal', { NO_COLOR: '1' }, true, false],
    ['FORCE_COLOR on a pipe', { FORCE_COLOR: '1' }, false, true],
    ['FORCE_COLOR=0 on a terminal', { FORCE_COLOR: '0' }, true, true],
    ['NO_COLOR and FORCE_COLOR', { NO_COLOR: '1', FORCE_COLOR: '1' }, true, false],
    ['TERM=dumb on a terminal', { TERM: 'dumb' }, true, false],
  ])('colours %s: %s', (_name, env, isTTY, coloured) => {
    expect(colorEnabled({ isTTY }, env)).toBe(coloured)
    // eslint-disable-next-line no-control-regex
    expect(/\x1b\[\d+m/.test(render([scenario('a.pass', 'passed')], env, false))).toBe(env.FORCE_COLOR === '1' && !env.NO_COLOR)
  })
})
