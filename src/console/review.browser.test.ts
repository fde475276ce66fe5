import { afterEach, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { createSandbox } from '../create-sandbox.js'
import type { RunningSandbox } from '../create-sandbox.js'
import { CHROMIUM, SKIP_REASON, chromiumForFile, withPage } from './test-support/browser.js'
import { audit, auditLog, axeViolations, holdBudgetRaise, holdEnable, openConsole, runTool } from './test-support/console-page.js'

const browser = chromiumForFile()
let sandbox: RunningSandbox | undefined

afterEach(async () => {
  await sandbox?.close()
  sandbox = undefined
})

const card = (page: Page, id: string) => page.locator(`article[data-audit-id="${id}"]`)
const usd = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`
const focused = (page: Page) => page.evaluate(() => ({ tag: document.activeElement?.tagName, text: document.activeElement?.textContent ?? '', id: document.activeElement?.closest('article')?.getAttribute('data-audit-id') ?? null }))

async function pressEnter(page: Page, times: number) {
  for (let i = 0; i < times; i++) await page.keyboard.press('Enter')
  // Let any request an Enter might have started reach the sandbox before the audit is read.
  await page.waitForLoadState('networkidle')
}

describe.skipIf(!CHROMIUM)('review decisions in Chromium', () => {
  it('a decision leaves focus on something that decides nothing, so repeated Enter approves nothing else', async () => {
    sandbox = await createSandbox()
    const sb = sandbox
    const enable = await holdEnable(sb)
    const raise = await holdBudgetRaise(sb, 300)
    const removal = await runTool(sb, 'agent', 'remove_campaign', ['--campaign-id', raise.campaign.id])
    await withPage(browser(), 'review-enter', async (page) => {
      await openConsole(page, sb, 'queue')
      await card(page, removal.body.audit_id!).waitFor()
      await page.getByLabel('Reviewer name').fill('Rey Reviewer')
      // The spend-raising enable asks first; its default button is Cancel, so Enter cancels.
      await card(page, enable.auditId).getByRole('button', { name: /^Approve/ }).click()
      const dialog = page.getByRole('dialog')
      expect(await dialog.innerText()).toContain(`start spending up to ${usd(enable.campaign.daily_budget)} a day (+${usd(enable.campaign.daily_budget)}/day)`)
      expect((await focused(page)).text).toBe('Cancel')
      expect(await axeViolations(page)).toEqual([])
      await pressEnter(page, 1)
      await dialog.waitFor({ state: 'detached' })
      expect((await audit(sb, enable.auditId)).status).toBe('pending_review')
      await card(page, enable.auditId).getByRole('button', { name: /^Approve/ }).click()
      await page.getByRole('button', { name: 'Approve and spend' }).click()
      await card(page, enable.auditId).waitFor({ state: 'detached' })
      // Focus is on the next card's heading: Enter there decides nothing.
      expect(await focused(page)).toMatchObject({ tag: 'H3', id: raise.auditId })
      await pressEnter(page, 5)
      // Keyboard path to the budget raise: Tab reaches Approve, Enter opens the question, Enter cancels.
      await page.keyboard.press('Tab')
      expect((await focused(page)).text).toBe('Approve…')
      await pressEnter(page, 1)
      const was = raise.campaign.daily_budget
      expect(await page.getByRole('dialog').innerText()).toContain(`” ${usd(was)} → $300.00 (+${usd(300 - was)}/day)?`)
      await pressEnter(page, 3)
      await card(page, removal.body.audit_id!).getByRole('button', { name: /^Reject/ }).click()
      await card(page, removal.body.audit_id!).waitFor({ state: 'detached' })
      expect(await focused(page)).toMatchObject({ tag: 'H3', id: raise.auditId })
      await pressEnter(page, 5)
    })
    // The audit, read through the control plane: one approval, one rejection, the raise untouched.
    const decided = (await auditLog(sb)).entries.filter((e) => e.review)
    expect(decided.map((e) => [e.script, e.review!.action]).sort()).toEqual([['enable_campaign', 'approve'], ['remove_campaign', 'reject']])
    expect((await audit(sb, raise.auditId)).status).toBe('pending_review')
  })

  it('says what approving will do in words, and a missing reviewer name is a warning that approves nothing', async () => {
    sandbox = await createSandbox()
    const sb = sandbox
    const enable = await holdEnable(sb)
    await withPage(browser(), 'review-card', async (page) => {
      await openConsole(page, sb, 'queue')
      await page.evaluate(() => sessionStorage.removeItem('adops-sandbox.reviewer'))
      const text = await card(page, enable.auditId).innerText()
      expect(text).toContain(`Enables “${enable.campaign.campaign_name}” (paused, ${usd(enable.campaign.daily_budget)}/day)`)
      expect(text).toMatch(/Why held\s+The policy holds enable operations for review\. \(rule hold\.operation\)/)
      expect(text).toMatch(/Asked by\s+key “agent” svc_test_age… \(issued to Olivia Owner\) · via the tools endpoint \(POST \/api\/v1\/tools\/run\) · \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ/)
      expect(text).toMatch(/Expires\s+in 2d 23h \d\dm \(\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\)/)
      // The words follow the campaign: after a budget cut elsewhere the card names the new amount.
      expect((await runTool(sb, 'owner', 'update_campaign_budget', ['--campaign-id', enable.campaign.id, '--daily-budget', '42'])).status).toBe(200)
      await card(page, enable.auditId).getByText('it starts spending up to $42.00 a day (+$42.00/day)').waitFor()
      await card(page, enable.auditId).getByRole('button', { name: /^Approve/ }).click()
      const status = page.getByRole('status')
      await status.filter({ hasText: 'Enter a reviewer name first' }).waitFor()
      expect(await status.getAttribute('data-kind')).toBe('warn')
      expect(await status.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(125, 78, 0)')
      expect(await page.getByRole('dialog').count()).toBe(0)
    })
    expect((await audit(sb, enable.auditId)).status).toBe('pending_review')
  })
})

// Only without Chromium (and never under CI=true, see test-support/browser.ts): one skip that names the reason.
if (!CHROMIUM) {
  describe('review decisions in Chromium', () => {
    it.skip(`skipped: ${SKIP_REASON}`, () => undefined)
  })
}
