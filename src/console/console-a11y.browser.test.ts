import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { createSandbox } from '../create-sandbox.js'
import type { RunningSandbox } from '../create-sandbox.js'
import { CHROMIUM, SKIP_REASON, launchChromium, screenshot, withPage } from './test-support/browser.js'
import { axeViolations, holdBudgetRaise, holdEnable, openConsole, runTool } from './test-support/console-page.js'

// UPDATE_SCREENSHOTS=1 (npm run docs:console) writes docs/console-<view>-<width>.png from these very pages.
const SCREENSHOTS = /^(1|true)$/i.test(process.env.UPDATE_SCREENSHOTS ?? '') ? 'docs' : null
const VIEWS = ['queue', 'audit', 'journal', 'world', 'transcript', 'faults']
const WIDTHS = [1440, 390]
const READY: Record<string, string> = {
  queue: 'article.card', audit: 'details.entry', journal: 'table.journal tbody tr[data-seq]', world: '.chart-plot canvas', transcript: '[data-credits]',
  faults: '#near-misses article.entry',
}

let browser: Browser
let sandbox: RunningSandbox

/** One sandbox with activity every view shows: held writes, an executed budget cut, reads, a refusal. */
beforeAll(async () => {
  if (!CHROMIUM) return
  browser = await launchChromium()
  sandbox = await createSandbox()
  await holdEnable(sandbox)
  const raise = await holdBudgetRaise(sandbox, 300)
  await runTool(sandbox, 'agent', 'update_campaign_budget', ['--campaign-id', raise.campaign.id, '--daily-budget', String(raise.campaign.daily_budget - 20)])
  await runTool(sandbox, 'agent', 'list_campaigns', [])
  await fetch(`${sandbox.baseUrl}/api/v1/keys`, { headers: { authorization: `Bearer ${sandbox.keys.agent}` } })
  // A fault rule that never fires (no budget that high), and a request that nearly matched it.
  await sandbox.control.request('POST', '/faults', { match: { script_name: 'update_campaign_budget', flags: { '--daily-budget': '99999' } }, status: 429 })
  await runTool(sandbox, 'agent', 'update_campaign_budget', ['--campaign-id', raise.campaign.id, '--daily-budget', String(raise.campaign.daily_budget - 30)])
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await sandbox?.close()
})

const cases = WIDTHS.flatMap((width) => VIEWS.map((view) => [view, width] as const))

describe.skipIf(!CHROMIUM)('web console on a desktop and a phone (axe-core WCAG 2.1 A/AA)', () => {
  it.each(cases)('the %s view at %i px: no horizontal page scroll, every tab visible, no axe violation of any impact', async (view, width) => {
    await withPage(browser, `a11y-${view}-${width}`, async (page) => {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 })
      await openConsole(page, sandbox, view)
      await page.locator(READY[view]).first().waitFor()
      // Opened disclosures are checked too: an audit entry in words, a journal exchange's bodies.
      if (view === 'audit') await page.locator('details.entry > summary').first().click()
      if (view === 'journal') await page.getByRole('button', { name: /^Details of exchange/ }).first().click()
      await page.waitForLoadState('networkidle')
      const layout = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
        tabs: [...document.querySelectorAll('nav.tabs a')].map((a) => {
          const r = a.getBoundingClientRect()
          return { text: (a as HTMLElement).innerText.trim(), left: r.left, right: r.right }
        }),
      }))
      expect(layout.scroll, 'page width').toBeLessThanOrEqual(layout.client)
      for (const tab of layout.tabs) expect(tab.left >= 0 && tab.right <= layout.client, `tab “${tab.text}” fully visible`).toBe(true)
      expect(await axeViolations(page, ['minor', 'moderate', 'serious', 'critical'])).toEqual([])
      if (SCREENSHOTS) {
        // Clicking scrolled wide tables sideways; the pictures show them from their start.
        await page.evaluate(() => document.querySelectorAll('.scroll-x').forEach((el) => el.scrollTo(0, 0)))
        await screenshot(page, `console-${view}-${width}`, SCREENSHOTS)
      }
    })
  })
})

// Only without Chromium (and never under CI=true, see test-support/browser.ts): one skip that names the reason.
if (!CHROMIUM) {
  describe('web console on a desktop and a phone (axe-core WCAG 2.1 A/AA)', () => {
    it.skip(`skipped: ${SKIP_REASON}`, () => undefined)
  })
}
