// Inline-SVG chart of a campaign's daily spend (bars) and clicks (line) over sandbox days.
import { h, money, s } from './dom.js'

const W = 560, H = 200, PAD = { l: 56, r: 48, t: 14, b: 30 }

function niceMax(v) {
  if (v <= 0) return 1
  const p = 10 ** Math.floor(Math.log10(v))
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((m) => m >= v)
}

/** A figure with the chart, its caption and the same numbers as a table (for screen readers). */
export function dailyChart(series) {
  const days = series.days
  const currency = series.currency
  const maxCost = niceMax(Math.max(0, ...days.map((d) => d.cost)))
  const maxClicks = niceMax(Math.max(0, ...days.map((d) => d.clicks)))
  const iw = W - PAD.l - PAD.r, ih = H - PAD.t - PAD.b
  const step = iw / Math.max(days.length, 1)
  const x = (i) => PAD.l + i * step
  const yCost = (v) => PAD.t + ih - (v / maxCost) * ih
  const yClicks = (v) => PAD.t + ih - (v / maxClicks) * ih
  const total = days.reduce((a, d) => ({ cost: a.cost + d.cost, clicks: a.clicks + d.clicks }), { cost: 0, clicks: 0 })
  const label = `${series.campaign_name ?? series.campaign_id}: ${days.length} days, spend ${money(total.cost, currency)}, ${total.clicks} clicks`
  const grid = [0, 0.5, 1].map((f) => [
    s('line', { x1: PAD.l, x2: W - PAD.r, y1: PAD.t + ih * (1 - f), y2: PAD.t + ih * (1 - f), class: 'grid' }),
    s('text', { x: PAD.l - 6, y: PAD.t + ih * (1 - f) + 4, 'text-anchor': 'end', class: 'axis cost' }, money(maxCost * f, currency).replace(/\.00$/, '')),
    s('text', { x: W - PAD.r + 6, y: PAD.t + ih * (1 - f) + 4, class: 'axis clicks' }, String(Math.round(maxClicks * f))),
  ])
  const every = Math.ceil(days.length / 7)
  const bars = days.map((d, i) => s('rect', { x: x(i) + step * 0.15, y: yCost(d.cost), width: step * 0.7, height: Math.max(0, PAD.t + ih - yCost(d.cost)), class: 'bar' },
    s('title', {}, `${d.date}: ${money(d.cost, currency)}, ${d.clicks} clicks`)))
  const ticks = days.map((d, i) => (i % every === 0 ? s('text', { x: x(i) + step / 2, y: H - 10, 'text-anchor': 'middle', class: 'axis' }, d.date.slice(5)) : null))
  const line = days.length ? s('polyline', { points: days.map((d, i) => `${x(i) + step / 2},${yClicks(d.clicks)}`).join(' '), class: 'line' }) : null
  const dots = days.map((d, i) => s('circle', { cx: x(i) + step / 2, cy: yClicks(d.clicks), r: 2.5, class: 'dot' }))
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label, class: 'chart' }, s('title', {}, label), grid, bars, line, dots, ticks)
  return h('figure', { class: 'chart-figure' },
    svg,
    h('figcaption', {}, h('span', { class: 'key-cost' }, 'Daily spend'), ' (bars, left axis) and ', h('span', { class: 'key-clicks' }, 'clicks'), ' (line, right axis) by sandbox day.'),
    h('details', {}, h('summary', {}, 'Data table'), h('table', { class: 'compact' },
      h('thead', {}, h('tr', {}, ['Day', 'Spend', 'Clicks', 'Impressions'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, days.map((d) => h('tr', {}, h('td', {}, d.date), h('td', { class: 'num' }, money(d.cost, currency)), h('td', { class: 'num' }, d.clicks), h('td', { class: 'num' }, d.impressions ?? '—')))))))
}
