// One workspace of the world view: credits, policy, members, keys (prefix only), connections, campaigns + chart.
import { get } from '../api.js'
import { badge, empty, h, money, mount, when } from '../dom.js'
import { dailyChart } from '../chart.js'

function table(caption, headers, rows) {
  if (!rows.length) return h('div', {}, h('h4', {}, caption), empty(`No ${caption.toLowerCase()}.`))
  return h('div', { class: 'table-wrap' }, h('h4', {}, caption), h('table', { class: 'compact' },
    h('thead', {}, h('tr', {}, headers.map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, rows.map((cells) => h('tr', {}, cells.map((c) => h('td', {}, c)))))))
}

function policyList(p) {
  const hours = p.operating_hours ? `${p.operating_hours.days.join(', ')} ${p.operating_hours.start}–${p.operating_hours.end} ${p.operating_hours.timezone}` : 'any time'
  return h('dl', { class: 'facts' },
    h('dt', {}, 'Held for review'), h('dd', {}, p.hold.length ? p.hold.join(', ') : 'nothing'),
    h('dt', {}, 'Blocked tools'), h('dd', {}, p.block_tools.length ? p.block_tools.join(', ') : 'none'),
    h('dt', {}, 'Operating hours'), h('dd', {}, hours),
    h('dt', {}, 'Max daily budget'), h('dd', {}, p.limits.max_daily_budget ?? 'no limit'),
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
  const chartBox = h('div', { class: 'chart-box', 'aria-live': 'polite' })
  const userName = (id) => world.users.find((u) => u.id === id)?.name ?? id

  async function showChart(campaign) {
    mount(chartBox, h('p', { class: 'muted' }, `Loading ${campaign.campaign_name}…`))
    try {
      const series = await get(`/console/campaigns/${encodeURIComponent(campaign.id)}/series?days=14`)
      mount(chartBox, h('h4', {}, `${campaign.campaign_name} — last ${series.days.length} sandbox days`), dailyChart({ ...series, campaign_name: campaign.campaign_name }))
    } catch (error) {
      mount(chartBox, empty(`No daily metrics for ${campaign.campaign_name}: ${error.message}`))
    }
  }

  const campaigns = ws.campaigns.map((c) => [
    c.campaign_name, h('code', {}, c.id), badge(c.status, c.status === 'ENABLED' ? 'executed' : c.status === 'PAUSED' ? 'pending_review' : 'blocked'),
    h('span', { class: 'num' }, money(c.daily_budget, c.currency)), c.channel_type,
    h('button', { type: 'button', class: 'link', 'aria-label': `Chart of ${c.campaign_name}`, onclick: () => void showChart(c) }, 'Chart'),
  ])
  if (ws.campaigns.length) queueMicrotask(() => void showChart(ws.campaigns.find((c) => c.status === 'ENABLED') ?? ws.campaigns[0]))
  const parent = ws.parent_id ? ` · client of ${ws.parent_id}` : ''
  return h('section', { class: 'workspace', 'aria-labelledby': `ws-${ws.id}`, dataset: { workspaceId: ws.id } },
    h('h3', { id: `ws-${ws.id}` }, ws.name, ' ', h('span', { class: 'muted' }, `${ws.id}${parent} · owner ${userName(ws.owner_user_id)}`),
      ws.pending_reviews ? [' ', h('a', { href: '#queue', class: 'badge b-pending_review' }, `${ws.pending_reviews} pending review`)] : null),
    h('div', { class: 'panels' },
      h('section', { class: 'panel' }, h('h4', {}, 'Credits'),
        h('p', { class: 'big', 'data-credits': ws.credits.balance }, `${ws.credits.balance} credits`),
        h('p', {}, ws.credits.payment_method ? 'Payment method on file' : 'No payment method (launches answer 402)')),
      h('section', { class: 'panel' }, h('h4', {}, 'Safety policy'), policyList(ws.policy))),
    table('Campaigns', ['Name', 'Id', 'Status', 'Daily budget', 'Channel', ''], campaigns),
    chartBox,
    table('Members', ['Name', 'E-mail', 'Role', 'Status'], ws.members.map((m) => [m.name, m.email, m.role, m.status])),
    table('Keys', ['Name', 'Prefix', 'Scopes', 'User', 'Created', 'Last used', 'Status'], ws.keys.map((k) => [
      k.name, h('code', {}, `${k.prefix}…`), h('span', { class: 'scopes' }, k.scopes.join(' ')), userName(k.user_id), when(k.created_at), when(k.last_used_at), keyStatus(k, world.now),
    ])),
    table('Connections', ['Account', 'Platform', 'Account id', 'Currency', 'Source', 'Status'], ws.connections.map((c) => [
      c.account_name, c.platform, h('code', {}, c.account_id), c.currency, c.source, badge(c.status, c.status === 'active' ? 'executed' : 'blocked'),
    ])))
}
