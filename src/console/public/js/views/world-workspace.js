// One workspace of the world view: credits, policy, members, keys (prefix only), connections, campaigns + chart.
import { get } from '../api.js'
import { badge, empty, field, h, money, mount, scrollRegion, select, time } from '../dom.js'
import { campaignMetrics, creditMetrics, dailyCharts } from '../chart.js'

function table(caption, headers, rows) {
  if (!rows.length) return h('div', {}, h('h4', {}, caption), empty(`No ${caption.toLowerCase()}.`))
  return h('div', {}, h('h4', {}, caption), scrollRegion(`${caption} (scrolls sideways on narrow screens)`, h('table', { class: 'compact' },
    h('thead', {}, h('tr', {}, headers.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, rows.map((cells) => h('tr', {}, cells.map((c) => h('td', {}, c))))))))
}

const WINDOWS = [['7', '7 days'], ['14', '14 days'], ['30', '30 days'], ['90', '90 days']]

/** Charts of one workspace: account totals or one campaign over a chosen window, and credits over time. */
function performance(ws, app) {
  const windowSelect = select('days', WINDOWS, '14')
  const subject = select('subject', [['', 'All campaigns (account totals)'], ...ws.campaigns.map((c) => [c.id, c.campaign_name])])
  const box = h('div', { class: 'chart-box', 'aria-live': 'polite' })
  const credits = h('div', { class: 'chart-box' })
  const status = (c) => (c.status === 'ENABLED' ? 'it ran' : `it is ${c.status.toLowerCase()}`)

  async function show() {
    const days = windowSelect.value
    const campaign = ws.campaigns.find((c) => c.id === subject.value)
    try {
      const account = await get(`/console/workspaces/${encodeURIComponent(ws.id)}/series?days=${days}`)
      const series = campaign ? await get(`/console/campaigns/${encodeURIComponent(campaign.id)}/series?days=${days}`) : account
      const currency = series.currency ?? 'USD'
      mount(box, dailyCharts({
        title: campaign ? `${campaign.campaign_name}: last ${days} sandbox days.` : `Account totals of ${ws.campaigns.length} campaigns: last ${days} sandbox days.`,
        days: series.days, partialDate: series.partial_date, metrics: campaignMetrics(currency),
        emptyText: campaign ? `No spend, impressions, clicks or conversions in the last ${days} days (${status(campaign)}).` : `No campaign ran in the last ${days} days.`,
      }))
      mount(credits, dailyCharts({
        title: `Credits of ${ws.name}, last ${days} sandbox days.`, days: account.credits, partialDate: account.partial_date, metrics: creditMetrics,
        emptyText: 'No credits and no charges in this window.',
      }))
    } catch (error) {
      app.fail(error)
    }
  }
  windowSelect.addEventListener('change', show)
  subject.addEventListener('change', show)
  queueMicrotask(show)
  const section = h('section', { class: 'performance', 'aria-labelledby': `perf-${ws.id}` },
    h('h4', { id: `perf-${ws.id}` }, 'Performance'),
    h('div', { class: 'filters' }, field('Show', subject), field('Window', windowSelect)),
    box, h('h4', {}, 'Credits over time'), credits)
  /** Charts one campaign (the campaigns table's buttons) and moves focus to the chart controls. */
  section.showCampaign = (id) => ((subject.value = id), void show(), subject.focus())
  return section
}

function policyList(p, currency) {
  const hours = p.operating_hours ? `${p.operating_hours.days.join(', ')} ${p.operating_hours.start}–${p.operating_hours.end} ${p.operating_hours.timezone}` : 'any time'
  return h('dl', { class: 'facts' },
    h('dt', {}, 'Held for review'), h('dd', {}, p.hold.length ? p.hold.join(', ') : 'nothing'),
    h('dt', {}, 'Blocked tools'), h('dd', {}, p.block_tools.length ? p.block_tools.join(', ') : 'none'),
    h('dt', {}, 'Operating hours'), h('dd', {}, hours),
    h('dt', {}, 'Max daily budget'), h('dd', {}, p.limits.max_daily_budget == null ? 'no limit' : money(p.limits.max_daily_budget, currency)),
    h('dt', {}, 'Max budget increase'), h('dd', {}, p.limits.max_budget_increase_pct === null ? 'no limit' : `${p.limits.max_budget_increase_pct}%`),
    h('dt', {}, 'Hold increases above'), h('dd', {}, p.hold_budget_increase_pct === null ? '—' : `${p.hold_budget_increase_pct}%`),
    h('dt', {}, 'Review expires after'), h('dd', {}, `${p.review_ttl_hours} h`))
}

function keyStatus(k, now) {
  if (k.revoked_at) return badge('revoked', 'blocked')
  if (k.expires_at && k.expires_at <= now) return badge('expired', 'expired')
  return badge('active', 'executed')
}

/** The section for one workspace. */
export function workspaceSection(ws, world, app) {
  const perf = performance(ws, app)
  const userName = (id) => world.users.find((u) => u.id === id)?.name ?? id

  const campaigns = ws.campaigns.map((c) => [
    c.campaign_name, h('code', {}, c.id), badge(c.status, c.status === 'ENABLED' ? 'executed' : c.status === 'PAUSED' ? 'pending_review' : 'blocked'),
    h('span', { class: 'num' }, money(c.daily_budget, c.currency)), c.channel_type,
    h('button', { type: 'button', class: 'link', 'aria-label': `Chart of ${c.campaign_name}`, onclick: () => perf.showCampaign(c.id) }, 'Chart'),
  ])
  const parent = ws.parent_id ? ` · client of ${ws.parent_id}` : ''
  // A workspace on its own test clock (issue 19) says so: its keys, reviews and metrics read that time.
  const ownClock = ws.own_clock ? ` · own clock ${ws.own_clock.now}${ws.own_clock.frozen ? ' (frozen)' : ''}` : ''
  return h('section', { class: 'workspace', 'aria-labelledby': `ws-${ws.id}`, dataset: { workspaceId: ws.id } },
    h('h3', { id: `ws-${ws.id}` }, ws.name, ' ', h('span', { class: 'muted' }, `${ws.id}${parent} · owner ${userName(ws.owner_user_id)}${ownClock}`),
      ws.pending_reviews ? [' ', h('a', { href: '#queue', class: 'badge b-pending_review' }, `${ws.pending_reviews} pending review`)] : null),
    h('div', { class: 'panels' },
      h('section', { class: 'panel' }, h('h4', {}, 'Credits'),
        h('p', { class: 'big', 'data-credits': ws.credits.balance }, `${ws.credits.balance} credits`),
        h('p', {}, ws.credits.payment_method ? 'Payment method on file' : 'No payment method (launches answer 402)')),
      h('section', { class: 'panel' }, h('h4', {}, 'Safety policy'), policyList(ws.policy, ws.connections[0]?.currency ?? ws.campaigns[0]?.currency))),
    table('Campaigns', ['Name', 'Id', 'Status', 'Daily budget', 'Channel', 'Chart'], campaigns),
    perf,
    table('Members', ['Name', 'E-mail', 'Role', 'Status'], ws.members.map((m) => [m.name, m.email, m.role, m.status])),
    table('Keys', ['Name', 'Prefix', 'Scopes', 'User', 'Created', 'Last used', 'Status'], ws.keys.map((k) => [
      k.name, h('code', {}, `${k.prefix}…`), h('span', { class: 'scopes' }, k.scopes.join(' ')), userName(k.user_id), time(k.created_at), time(k.last_used_at), keyStatus(k, ws.own_clock?.now ?? world.now),
    ])),
    table('Connections', ['Account', 'Platform', 'Account id', 'Currency', 'Source', 'Status'], ws.connections.map((c) => [
      c.account_name, c.platform, h('code', {}, c.account_id), c.currency, c.source, badge(c.status, c.status === 'active' ? 'executed' : 'blocked'),
    ])))
}
