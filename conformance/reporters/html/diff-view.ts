import { diffLines } from 'diff'
import type { Secrets } from '../../secrets.js'
import type { StepResult } from '../../types.js'
import { esc } from '../format.js'

/** Pretty JSON (or `undefined`) for a value in a diff or a body. */
export function pretty(value: unknown): string {
  if (value === undefined) return 'undefined'
  if (typeof value === 'string') return JSON.stringify(value)
  return JSON.stringify(value, null, 2)
}

/**
 * Expected vs given of a failed step, one block per mismatching path, coloured line by line with
 * the `diff` package: removed lines are what the scenario expected, added lines what the target gave.
 */
export function diffView(step: StepResult, secrets: Secrets): string {
  if (!step.diff?.length) return ''
  const blocks = step.diff.map((d) => {
    const expected = secrets.redact(pretty(d.expected))
    const given = secrets.redact(pretty(d.given))
    const lines = diffLines(`${expected}\n`, `${given}\n`).map((change) => {
      const klass = change.added ? 'add' : change.removed ? 'del' : 'same'
      const sign = change.added ? '+ ' : change.removed ? '- ' : '  '
      const text = change.value.replace(/\n$/, '').split('\n').map((l) => `${sign}${l}`).join('\n')
      return `<span class="${klass}">${esc(text)}</span>`
    })
    return `<div class="diff"><div class="diff-path"><code>${esc(d.path)}</code> <span class="legend"><span class="del">- expected</span> <span class="add">+ given</span></span></div><pre tabindex="0">${lines.join('\n')}</pre></div>`
  })
  return blocks.join('')
}
