// Daily charts drawn with uPlot (vendored from node_modules, served at vendor/): one small chart per
// metric so each has its own readable axis; today's partial day is a dashed segment, never a "crash";
// a metric with nothing in the window gets a sentence instead of an empty axis. Every chart has a text
// label and the same numbers as a table.
import { h, money } from './dom.js'

const HEIGHT = 150
const AXIS = { stroke: '#57606a', grid: { stroke: '#e4e8ec', width: 1 }, ticks: { stroke: '#d0d7de', width: 1 }, font: '12px system-ui, sans-serif' }

/** `metrics`: [{key, label, color, format}]; `days`: [{date, ...}] oldest first; the day `partialDate` is still running. */
export function dailyCharts({ title, days, partialDate, metrics, emptyText }) {
  const figure = h('figure', { class: 'chart-figure' })
  const active = metrics.filter((m) => days.some((d) => d[m.key] > 0))
  if (!days.length || !active.length) {
    figure.append(h('figcaption', {}, title), h('p', { class: 'empty chart-empty' }, emptyText ?? `Nothing in these ${days.length} days.`))
    return figure
  }
  const grid = h('div', { class: 'chart-grid' })
  for (const m of metrics) grid.append(active.includes(m) ? metricChart(m, days, partialDate) : h('div', { class: 'chart-cell' }, h('h5', {}, m.label), h('p', { class: 'empty' }, `No ${m.label.toLowerCase()} in these ${days.length} days.`)))
  const partial = days.at(-1)?.date === partialDate
  figure.append(h('figcaption', {}, title, partial ? ` The last day (${partialDate}) is still running: its dashed segment is partial.` : ''), grid, dataTable(days, metrics, partialDate))
  return figure
}

function metricChart(m, days, partialDate) {
  const total = days.reduce((a, d) => a + d[m.key], 0)
  const peak = days.reduce((a, d) => (d[m.key] > a[m.key] ? d : a), days[0])
  const label = `${m.label} per day: ${m.total === false ? `latest ${m.format(days.at(-1)[m.key])}` : `total ${m.format(total)}`}, highest ${m.format(peak[m.key])} on ${peak.date}`
  const plot = h('div', { class: 'chart-plot', role: 'img', 'aria-label': label })
  const cell = h('div', { class: 'chart-cell', dataset: { metric: m.key } },
    h('h5', {}, m.label, ' ', h('span', { class: 'unit' }, `(${m.unit})`), ' ', h('span', { class: 'muted' }, m.total === false ? `now ${m.format(days.at(-1)[m.key])}` : `${m.format(total)} total`)), plot)
  const xs = days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000)
  const values = days.map((d) => d[m.key])
  const partial = days.at(-1).date === partialDate
  const done = partial ? values.map((v, i) => (i === values.length - 1 ? null : v)) : values
  const today = values.map((v, i) => (partial && i >= values.length - 2 ? v : null))
  const opts = {
    width: 300, height: HEIGHT, legend: { show: false }, cursor: { show: false }, select: { show: false },
    scales: { x: { time: true }, y: { range: (u, min, max) => yRange(m, min, max) } },
    axes: [
      { ...AXIS, values: (u, splits) => splits.map((s) => new Date(s * 1000).toISOString().slice(5, 10)), space: 48 },
      // The unit on the axis itself (issue 37): `USD per day`, `credits`.
      { ...AXIS, size: 60, label: m.unit, labelSize: 16, labelFont: AXIS.font, values: (u, splits) => splits.map((s) => m.short(s)) },
    ],
    series: [
      {},
      { label: m.label, stroke: m.color, width: 2, fill: `${m.color}22`, points: { size: 5, fill: m.color } },
      // Only today's point is hollow; yesterday's (the segment's start) keeps its solid point.
      { label: `${m.label} today (partial)`, stroke: m.color, width: 2, dash: [5, 4], points: { size: 7, fill: '#fff', stroke: m.color, filter: () => [values.length - 1] } },
    ],
  }
  // uPlot measures nothing itself: size it to its cell once attached, and again when the cell resizes.
  requestAnimationFrame(() => {
    if (!plot.isConnected || !window.uPlot) return
    // The drawn y range, for readers of the DOM (tests, tools): the canvas itself holds no text.
    const hooks = { draw: [(u) => { plot.dataset.yRange = `${u.scales.y.min}..${u.scales.y.max}` }] }
    const chart = new window.uPlot({ ...opts, hooks, width: Math.max(200, plot.clientWidth) }, [xs, done, today], plot)
    new ResizeObserver(() => plot.clientWidth && chart.setSize({ width: Math.max(200, plot.clientWidth), height: HEIGHT })).observe(plot)
  })
  return cell
}

/**
 * The y range: flows (spend, clicks, credits charged) start at 0; a level (the credit balance) is
 * scaled to the data, so a drop of 7 credits from 1 000 shows as a drop, not a flat line at the top.
 */
function yRange(m, min, max) {
  if (m.total !== false) return [0, max > 0 ? max * 1.1 : 1]
  const pad = Math.max((max - min) * 0.2, 1)
  return [Math.max(0, Math.floor(min - pad)), Math.ceil(max + pad)]
}

function dataTable(days, metrics, partialDate) {
  return h('details', { class: 'chart-data' }, h('summary', {}, 'Data table'),
    h('div', { class: 'scroll-x', tabindex: '0', role: 'region', 'aria-label': 'Chart data' }, h('table', { class: 'compact' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Day'), metrics.map((m) => h('th', { scope: 'col', class: 'num' }, `${m.label} (${m.unit})`)))),
      h('tbody', {}, days.map((d) => h('tr', {}, h('td', {}, d.date === partialDate ? `${d.date} (partial)` : d.date), metrics.map((m) => h('td', { class: 'num' }, m.format(d[m.key])))))))))
}

const compact = (v) => (Math.abs(v) >= 1e6 ? `${+(v / 1e6).toFixed(1)}M` : Math.abs(v) >= 1e3 ? `${+(v / 1e3).toFixed(1)}k` : `${+v.toFixed(2)}`)
const count = (v) => Math.round(v).toLocaleString('en-US')

/** The four campaign metrics, spend in `currency`. */
export function campaignMetrics(currency) {
  return [
    { key: 'cost', label: 'Spend', unit: `${currency} per day`, color: '#2f6fdd', format: (v) => money(v, currency), short: compact },
    { key: 'impressions', label: 'Impressions', unit: 'impressions per day', color: '#6f42c1', format: count, short: compact },
    { key: 'clicks', label: 'Clicks', unit: 'clicks per day', color: '#c2410c', format: count, short: compact },
    { key: 'conversions', label: 'Conversions', unit: 'conversions per day', color: '#116329', format: (v) => (+v.toFixed(2)).toLocaleString('en-US'), short: compact },
  ]
}

/** Credits: the balance at each day's end (a level, not summed) and what was charged that day. */
export const creditMetrics = [
  { key: 'balance', label: 'Credit balance', unit: 'credits at day end', color: '#0a58ca', format: count, short: count, total: false },
  { key: 'charged', label: 'Credits charged', unit: 'credits per day', color: '#a40e26', format: count, short: compact },
]
