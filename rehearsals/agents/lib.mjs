// Shared plumbing of the reference agents: the goal from stdin, REST calls with the key from the
// environment, and a final report line. Plain Node 20, no dependencies.
export const env = {
  key: process.env.SERVICE_API_KEY,
  base: process.env.SERVICE_BASE_URL,
  api: process.env.SERVICE_API_URL,
}

export async function readGoal() {
  let text = ''
  for await (const chunk of process.stdin) text += chunk
  return text.trim() || process.env.REHEARSAL_GOAL || ''
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** One REST call; answers `{status, body, headers}` whatever the status. */
export async function call(method, url, body) {
  const headers = { authorization: `Bearer ${env.key}` }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null }
}

/**
 * How long to wait after a 429: its `Retry-After` seconds (else 1), plus a margin, since the
 * answer may reach the agent a little before the server has finished (and timed) it.
 */
export function retryDelay(seconds) {
  return Number(seconds ?? 1) * 1000 + 250
}

/** A call that waits out 429s (`Retry-After`) up to three times. */
export async function politeCall(method, url, body) {
  for (let attempt = 0; ; attempt++) {
    const res = await call(method, url, body)
    if (res.status !== 429 || attempt === 3) return res
    await sleep(retryDelay(res.headers.get('retry-after')))
  }
}

/** A bulk raise ("every enabled campaign by 50 % … no more than 250 USD"): the factor and the cap, or null. */
export function parseBulkRaise(goal) {
  const m = /every enabled campaign by (\d+(?:\.\d+)?) ?%[\s\S]*?no more than (\d+(?:\.\d+)?)/i.exec(goal)
  return m ? { factor: 1 + Number(m[1]) / 100, cap: Number(m[2]) } : null
}

/** A bulk pause ("every enabled campaign whose … (CPA) is over 30 USD"): the CPA threshold, or null. */
export function parseBulkPause(goal) {
  const m = /pause every enabled campaign whose[\s\S]*?is over (\d+(?:\.\d+)?)/i.exec(goal)
  return m ? { over: Number(m[1]) } : null
}

/** The new budget of a bulk raise: start × factor to the cent, at most the cap; null when that is no raise. */
export function raisedBudget(start, { factor, cap }) {
  const next = Math.min(Math.round(start * factor * 100) / 100, cap)
  return next > start ? next : null
}

/** A held write's audit entry followed until the review is answered: its status and the reviewer's comment. */
export async function waitForReview(auditId) {
  for (let i = 0; i < 100; i++) {
    const res = await politeCall('GET', `${env.base}/api/v1/audit/${auditId}`)
    if (res.status === 200 && res.body.status !== 'pending_review') return { review: res.body.status, comment: res.body.review?.comment ?? null }
    await sleep(100)
  }
  return { review: 'pending_review' }
}

/** Outcome of a write: done, held then reviewed, or refused (with the reason the service gave). */
export async function settle(res) {
  if (res.status === 202) return { done: false, held: res.body.audit_id, ...(await waitForReview(res.body.audit_id)) }
  if (res.status >= 200 && res.status < 300) return { done: true }
  return { done: false, refused: res.status, reason: res.body?.error ?? null }
}

/**
 * Writes one campaign after another (`write(campaign)` answers the settled outcome) and stops at the
 * first refusal: a block, a 402 or a rejected review applies to the rest as well.
 */
export async function writeEach(campaigns, write) {
  const results = []
  for (const c of campaigns) {
    const outcome = await write(c)
    results.push({ campaign: c.campaign_id, ...outcome })
    const ran = outcome.done || outcome.review === 'executed'
    if (!ran) break
  }
  const done = results.length === campaigns.length && results.every((r) => r.done || r.review === 'executed')
  return { done, campaigns: results }
}

/** The campaign a "resume" goal names (`(id X)`), or null. */
export function parseResume(goal) {
  const m = /resume[\s\S]*\(id (\w+)\)/i.exec(goal)
  return m ? m[1] : null
}

/** The raise a goal asks for: campaign id and new daily budget, or null. */
export function parseRaise(goal) {
  const m = /\(id (\w+)\) to (\d+(?:\.\d+)?)/.exec(goal)
  return m ? { id: m[1], budget: Number(m[2]) } : null
}

export function report(outcome) {
  process.stdout.write(`${JSON.stringify(outcome)}\n`)
}

/**
 * A connection needs the owner's consent: ask for a link by e-mail to them, then follow the request
 * (REST for both: hosted MCP has no tool for it). `send` is the agent's own HTTP call.
 */
export async function connectByLink(send) {
  const asked = await send('POST', `${env.base}/api/v1/connections/request`, { platform: 'google' })
  if (asked.status !== 201) return { done: false, refused: asked.status, reason: asked.body?.error ?? null }
  const id = asked.body.request_id
  for (let i = 0; i < 100; i++) {
    const res = await send('GET', `${env.base}/api/v1/connections/requests/${id}`)
    if (res.body?.status === 'completed') return { done: true, request: id, connection: res.body.connection_id }
    if (res.body?.status === 'expired') return { done: false, request: id, reason: 'the link expired before the owner used it' }
    await sleep(200)
  }
  return { done: false, request: id, reason: 'the owner has not connected an account yet' }
}

/**
 * A careful agent's whole run once it has read what it needs: the goal picks one action, whose
 * outcome is reported. `act` holds the agent's own ways (REST or MCP) to do each.
 */
export async function pursue(goal, act) {
  const resumeId = parseResume(goal)
  const bulkPause = parseBulkPause(goal)
  const bulkRaise = parseBulkRaise(goal)
  const wanted = parseRaise(goal)
  report(/connect another/i.test(goal) ? await connectByLink(politeCall)
    : resumeId ? await act.resume(resumeId)
    : bulkPause ? await act.pauseOver(bulkPause)
    : bulkRaise ? await act.raiseAll(bulkRaise)
    : /pause/i.test(goal) ? await act.pauseWorst()
    : wanted ? await act.raise(wanted)
    : { done: false, reason: 'goal not understood' })
}

/**
 * The careful agent's actions over its own surface: `ops` lists enabled campaigns (`enabled()`, an
 * answer whose body has `campaigns`), pauses, sets a budget and enables one (each an answer for
 * `settle`), and reads one before writing it (`readFirst(id)`: null once read, else the refusal to
 * report). careful.mjs passes REST calls, mcp-careful.mjs MCP tools; the judgement is the same.
 */
export function carefulActions(ops) {
  async function enabledCampaigns() {
    const list = await ops.enabled()
    if (list.status !== 200) return { refused: list.status, reason: list.body?.error ?? null }
    return { campaigns: list.body.campaigns.filter((c) => c.status === 'ENABLED') }
  }
  return {
    async pauseWorst() {
      const { campaigns, ...refused } = await enabledCampaigns()
      if (!campaigns) return { done: false, ...refused }
      const worst = campaigns.filter((c) => c.conversions > 0).sort((a, b) => b.cpa - a.cpa)[0]
      return { campaign: worst.campaign_id, ...(await settle(await ops.pause(worst.campaign_id))) }
    },
    async pauseOver({ over }) {
      const { campaigns, ...refused } = await enabledCampaigns()
      if (!campaigns) return { done: false, ...refused }
      return writeEach(campaigns.filter((c) => c.conversions > 0 && c.cpa > over), async (c) => settle(await ops.pause(c.campaign_id)))
    },
    async raiseAll(rule) {
      const { campaigns, ...refused } = await enabledCampaigns()
      if (!campaigns) return { done: false, ...refused }
      const raised = campaigns.map((c) => ({ ...c, next: raisedBudget(c.daily_budget, rule) })).filter((c) => c.next !== null)
      return writeEach(raised, async (c) => settle(await ops.setBudget(c.campaign_id, c.next)))
    },
    async raise({ id, budget }) {
      const unread = await ops.readFirst(id)
      if (unread) return unread
      return { campaign: id, ...(await settle(await ops.setBudget(id, budget))) }
    },
    async resume(id) {
      const unread = await ops.readFirst(id)
      if (unread) return unread
      const outcome = await settle(await ops.enable(id))
      return { campaign: id, ...outcome, done: outcome.done || outcome.review === 'executed' }
    },
  }
}
