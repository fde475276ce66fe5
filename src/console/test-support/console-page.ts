import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { expect } from 'vitest'
import type { Page } from 'playwright-core'
import type { RunningSandbox } from '../../create-sandbox.js'

/** Shared steps of the console's browser tests: activity through the public API, reads through the control plane. */

export interface CampaignView { id: string; status: string; campaign_name: string; daily_budget: number }
export interface Overview { workspaces: Array<{ id: string; campaigns: CampaignView[]; connections: Array<{ source: string; account_id: string }> }> }
export interface Audit { id: string; status: string; script: string; review: { by: string; action: string } | null }

export const overview = (sb: RunningSandbox) => sb.control.request<Overview>('GET', '/console/overview')
export const audit = (sb: RunningSandbox, id: string) => sb.control.request<Audit>('GET', `/audit/${id}`)
export const auditLog = (sb: RunningSandbox, query = '') => sb.control.request<{ entries: Audit[]; total: number }>('GET', `/audit?limit=500${query}`)

export async function campaigns(sb: RunningSandbox): Promise<CampaignView[]> {
  return (await overview(sb)).workspaces[0].campaigns
}

export async function campaign(sb: RunningSandbox, id: string): Promise<CampaignView> {
  return (await campaigns(sb)).find((c) => c.id === id)!
}

/** Runs a dispatcher script as a world key (REST surface, Google). */
export async function runTool(sb: RunningSandbox, key: string, script_name: string, args: string[]) {
  const res = await fetch(`${sb.baseUrl}/api/v1/tools/run`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sb.keys[key]}`, 'content-type': 'application/json' },
    body: JSON.stringify({ script_name, args, platform: 'google' }),
  })
  return { status: res.status, body: (await res.json()) as { status?: string; audit_id?: string } }
}

/** The agent asks to enable a paused campaign; the default policy holds it (GATE-01, GATE-03). */
export async function holdEnable(sb: RunningSandbox) {
  const paused = (await campaigns(sb)).find((c) => c.status === 'PAUSED')
  expect(paused, 'the default world has a paused campaign').toBeDefined()
  const held = await runTool(sb, 'agent', 'enable_campaign', ['--campaign-id', paused!.id])
  expect(held).toMatchObject({ status: 202, body: { status: 'pending_review' } })
  return { campaign: paused!, auditId: held.body.audit_id! }
}

/** Holds budget increases above 10 % (GATE-03), then the agent asks for `budget` on an enabled campaign. */
export async function holdBudgetRaise(sb: RunningSandbox, budget: number, which = 0) {
  const { policy } = await sb.control.request<{ policy: Record<string, unknown> }>('GET', '/workspaces/ws_acme/policy')
  await sb.control.request('PUT', '/workspaces/ws_acme/policy', { ...policy, hold_budget_increase_pct: 10 })
  const enabled = (await campaigns(sb)).filter((c) => c.status === 'ENABLED')[which]
  const held = await runTool(sb, 'agent', 'update_campaign_budget', ['--campaign-id', enabled.id, '--daily-budget', String(budget)])
  expect(held).toMatchObject({ status: 202, body: { status: 'pending_review' } })
  return { campaign: enabled, auditId: held.body.audit_id! }
}

/** Signs the page in as a person would (the one-time link from the banner), then opens `view`. */
export async function openConsole(page: Page, sb: RunningSandbox, view: string) {
  await page.goto(sb.consoleLink())
  await page.goto(`${sb.baseUrl}/_sandbox/console/#${view}`)
  await page.getByRole('link', { name: /Review queue/ }).waitFor()
}

const AXE_SOURCE = readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** axe-core's WCAG 2.1 A/AA violations on the page, as `id [impact]: help (targets)` lines. */
export async function axeViolations(page: Page, impacts: string[] = ['serious', 'critical']): Promise<string[]> {
  // Evaluated through the devtools protocol, so the console's CSP does not block it.
  await page.evaluate(await AXE_SOURCE)
  return page.evaluate(async (wanted) => {
    type Result = { violations: Array<{ id: string; impact: string; help: string; nodes: Array<{ target: unknown }> }> }
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<Result> } }).axe
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
    return result.violations.filter((v) => wanted.includes(v.impact))
      .map((v) => `${v.id} [${v.impact}]: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`)
  }, impacts)
}
