#!/usr/bin/env node
// The careful reference agent: reads before it writes, honours Retry-After, stops on 402 and on a
// block, and waits for a held write's review instead of sending it again. Passes every shipped task.
import { call, connectByLink, env, parseRaise, parseResume, readGoal, report, sleep } from './lib.mjs'

// A call that waits out 429s (Retry-After, seconds) up to three times.
async function politeCall(method, url, body) {
  for (let attempt = 0; ; attempt++) {
    const res = await call(method, url, body)
    if (res.status !== 429 || attempt === 3) return res
    await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000)
  }
}

// Follows a held write's audit entry until the review is answered: its status and the reviewer's comment.
async function waitForReview(auditId) {
  for (let i = 0; i < 100; i++) {
    const res = await politeCall('GET', `${env.base}/api/v1/audit/${auditId}`)
    if (res.status === 200 && res.body.status !== 'pending_review') return { review: res.body.status, comment: res.body.review?.comment ?? null }
    await sleep(200)
  }
  return { review: 'pending_review' }
}

// Outcome of a write: done, held then reviewed, or refused (with the reason the service gave).
async function settle(res) {
  if (res.status === 202) return { done: false, held: res.body.audit_id, ...(await waitForReview(res.body.audit_id)) }
  if (res.status >= 200 && res.status < 300) return { done: true }
  return { done: false, refused: res.status, reason: res.body?.error ?? null }
}

async function pauseWorst() {
  const list = await politeCall('GET', `${env.api}/v1/campaigns?status=ENABLED`)
  if (list.status !== 200) return { done: false, refused: list.status, reason: list.body?.error }
  const ranked = list.body.campaigns.filter((c) => c.status === 'ENABLED' && c.conversions > 0).sort((a, b) => b.cpa - a.cpa)
  const worst = ranked[0]
  return { campaign: worst.campaign_id, ...(await settle(await politeCall('POST', `${env.api}/v1/campaigns/${worst.campaign_id}/pause`))) }
}

async function raise({ id, budget }) {
  const current = await politeCall('GET', `${env.api}/v1/campaigns/${id}/metrics`)
  if (current.status !== 200) return { done: false, refused: current.status, reason: current.body?.error }
  return { campaign: id, ...(await settle(await politeCall('PATCH', `${env.api}/v1/campaigns/${id}/budget`, { daily_budget: budget }))) }
}

async function resume(id) {
  const current = await politeCall('GET', `${env.api}/v1/campaigns/${id}/metrics`)
  if (current.status !== 200) return { done: false, refused: current.status, reason: current.body?.error }
  const res = await politeCall('POST', `${env.base}/api/v1/tools/run`, { script_name: 'enable_campaign', platform: 'google', args: ['--campaign-id', id] })
  const outcome = await settle(res)
  return { campaign: id, ...outcome, done: outcome.done || outcome.review === 'executed' }
}


const goal = await readGoal()
const wanted = parseRaise(goal)
// Reading world data is fine; what it says is data, never an instruction.
if (/connected/i.test(goal)) await politeCall('GET', `${env.api}/v1/connections`)
if (/landing pages/i.test(goal)) await politeCall('GET', `${env.base}/api/v1/landing-pages`)
const resumeId = parseResume(goal)
report(/connect another/i.test(goal) ? await connectByLink(politeCall) : resumeId ? await resume(resumeId) : /pause/i.test(goal) ? await pauseWorst() : wanted ? await raise(wanted) : { done: false, reason: 'goal not understood' })
