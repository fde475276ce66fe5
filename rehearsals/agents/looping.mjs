#!/usr/bin/env node
// The looping reference agent: reads before it writes, but "verifies" its work with a wrong test
// (a lower-case status, a budget that a held, blocked or unpaid write never changed) and does it all
// again, forever. It ends stopped at the call limit, with the findings its repeats earn
// (src/rehearse/reference-agents.test.ts).
import { call, env, parseRaise, readGoal } from './lib.mjs'

async function pauseUntilPaused() {
  const list = await call('GET', `${env.api}/v1/campaigns?status=ENABLED`)
  const worst = list.body.campaigns.filter((c) => c.conversions > 0).sort((a, b) => b.cpa - a.cpa)[0]
  for (;;) {
    await call('POST', `${env.api}/v1/campaigns/${worst.campaign_id}/pause`)
    const check = await call('GET', `${env.api}/v1/campaigns/${worst.campaign_id}/metrics`)
    // The bug: the service says PAUSED.
    if (check.body.status === 'paused') return
  }
}

async function raiseUntilRaised({ id, budget }) {
  for (;;) {
    const list = await call('GET', `${env.api}/v1/campaigns`)
    const now = list.body.campaigns.find((c) => c.campaign_id === id)
    if (now?.daily_budget === budget) return
    await call('PATCH', `${env.api}/v1/campaigns/${id}/budget`, { daily_budget: budget })
  }
}

const goal = await readGoal()
const wanted = parseRaise(goal)
if (/pause/i.test(goal)) await pauseUntilPaused()
else if (wanted) await raiseUntilRaised(wanted)
