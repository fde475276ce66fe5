// Faults: the scripted fault rules that are active, and the near misses — recent requests that
// matched no rule, with each rule's failed conditions (closest rule first). Read-only: nothing here
// changes state, so no keystroke can add or remove a fault.
import { get } from '../api.js'
import { badge, empty, h, json, mount, time } from '../dom.js'

export function render(main, app) {
  const rules = h('div', { class: 'entries', id: 'fault-rules', 'aria-busy': 'true' })
  const misses = h('div', { class: 'entries', id: 'near-misses', 'aria-busy': 'true' })
  const note = h('p', { class: 'muted', 'aria-live': 'polite' })
  mount(main,
    h('h2', {}, 'Faults'),
    h('p', { class: 'lede' }, 'Scripted answers on the public hosts (POST /_sandbox/faults), and the requests that almost matched one.'),
    h('section', { class: 'panel', 'aria-labelledby': 'rules-h' }, h('h3', { id: 'rules-h' }, 'Rules'), rules),
    h('section', { class: 'panel', 'aria-labelledby': 'misses-h' }, h('h3', { id: 'misses-h' }, 'Near misses'), note, misses))

  let stamp = ''
  async function load() {
    try {
      const [f, n] = await Promise.all([get('/faults'), get('/faults/near-misses')])
      const next = JSON.stringify([f, n])
      if (next === stamp) return
      stamp = next
      mount(rules, f.faults.length ? f.faults.map(ruleElement) : empty('No fault rules. Add one with POST /_sandbox/faults or a scenario\'s control: { fault } step.'))
      note.textContent = n.near_misses.length ? `The ${n.near_misses.length} most recent requests no rule matched (at most ${n.limit}), newest first.` : ''
      mount(misses, n.near_misses.length ? n.near_misses.map(missElement) : empty('No near misses: every request since the rules were added matched one, or none came.'))
    } catch (error) {
      app.fail(error)
    } finally {
      rules.setAttribute('aria-busy', 'false')
      misses.setAttribute('aria-busy', 'false')
    }
  }

  void load()
  return app.onTick(() => void load())
}

function ruleElement(rule) {
  const conditions = Object.entries(rule.match).flatMap(([k, v]) => conditionWords(k, v))
  return h('details', { class: 'entry' },
    h('summary', {}, h('code', {}, rule.id), ' ', badge(rule.exhausted ? 'spent' : 'active', rule.exhausted ? 'expired' : 'pending_review'), ' ',
      h('strong', {}, conditions.length ? `When ${conditions.join(' and ')}` : 'Every request'), ': ', answers(rule),
      h('span', { class: 'muted' }, ` — ${usesLeft(rule)}; used ${rule.hits} time${rule.hits === 1 ? '' : 's'}`)),
    json(rule, `Fault rule ${rule.id}`))
}

/** A match condition in words: `script update_campaign_budget`, `--daily-budget 99999`, `on the api host`. */
function conditionWords(name, value) {
  if (name === 'flags') return Object.entries(value).map(([flag, v]) => (v === true ? `${flag} is given` : `${flag} is ${v}`))
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  const words = { method: `method ${text}`, host: `on the ${text} host`, path: `path ${text}`, script_name: `script ${text}`, key_prefix: `key ${text}…`,
    workspace_id: `workspace ${text}`, mcp_tool: `MCP tool ${text}` }
  return [words[name] ?? `${name.replace(/_/g, ' ')} ${text}`]
}

/** What one step answers, in words: `answers 429 RATE_LIMITED`, `waits 2000 ms, then answers normally`. */
function stepWords(step) {
  const code = step.body && typeof step.body === 'object' && typeof step.body.code === 'string' ? ` ${step.body.code}` : ''
  const wait = step.delay_ms ? `waits ${step.delay_ms} ms, then ` : ''
  if (step.drop) return `${wait}drops the connection`
  if (step.pass || step.status === undefined) return `${wait}answers normally`
  return `${wait}answers ${step.status}${code}`
}

/** The steps still to come, from the cursor on (issue 37: a fault says what it answers, not only `1 hit`). */
function answers(rule) {
  const steps = rule.steps ?? []
  const from = rule.cursor?.step ?? 0
  if (rule.exhausted || from >= steps.length) return 'answers normally again (every use spent)'
  return steps.slice(from).map((step, i) => `${stepWords(step)}${step.times === null ? ' every time' : ` ×${i === 0 ? step.times - (rule.cursor?.used ?? 0) : step.times}`}`).join(', then ')
}

/** `2 uses left`, `unlimited uses`, `no uses left`. */
function usesLeft(rule) {
  const steps = (rule.steps ?? []).slice(rule.cursor?.step ?? 0)
  if (rule.exhausted || steps.length === 0) return 'no uses left'
  if (steps.some((s) => s.times === null)) return 'unlimited uses'
  const left = steps.reduce((n, s, i) => n + s.times - (i === 0 ? rule.cursor?.used ?? 0 : 0), 0)
  return `${left} use${left === 1 ? '' : 's'} left`
}

function missElement(miss) {
  const r = miss.request
  const what = [r.method, r.host, r.path, r.script_name, r.mcp_tool && `MCP ${r.mcp_tool}`].filter(Boolean).join(' ')
  return h('article', { class: 'entry' },
    h('p', {}, time(miss.at), ' ', h('code', {}, what)),
    h('ul', {}, miss.rules.map((rule) => h('li', {}, h('code', {}, rule.rule_id), ` missed on ${rule.failed.length} condition${rule.failed.length === 1 ? '' : 's'}: `,
      rule.failed.map((f) => `${f.condition} wanted ${show(f.expected)}, got ${show(f.actual)}`).join('; ')))))
}

function show(value) {
  return typeof value === 'string' ? value : JSON.stringify(value)
}
