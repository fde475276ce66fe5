import { afterEach, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { createSandbox } from '../create-sandbox.js'
import type { RunningSandbox } from '../create-sandbox.js'
import { CHROMIUM, SKIP_REASON, chromiumForFile, withPage } from './test-support/browser.js'
import { audit, auditLog, axeViolations, campaign, holdEnable, openConsole, runTool } from './test-support/console-page.js'

// Issue 37: what a person reads at a glance, and no keystroke that undoes what cannot be undone.
const browser = chromiumForFile()
let sandbox: RunningSandbox | undefined

afterEach(async () => {
  await sandbox?.close()
  sandbox = undefined
})

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '')

/** Five Enters after the dialog opened; then every request they could have started has landed. */
async function enterFiveTimes(page: Page) {
  for (let i = 0; i < 5; i++) await page.keyboard.press('Enter')
  await page.waitForLoadState('networkidle')
  // A dialog an Enter reopened is closed again by Escape, which cancels too.
  if (await page.getByRole('dialog').count()) await page.keyboard.press('Escape')
}

describe.skipIf(!CHROMIUM)('the console at a glance (issue 37)', () => {
  it('every irreversible action asks first with Cancel focused, and five Enters change nothing', async () => {
    sandbox = await createSandbox()
    const sb = sandbox
    const enable = await holdEnable(sb)
    const target = enable.campaign.id
    const removal = await runTool(sb, 'agent', 'remove_campaign', ['--campaign-id', target])
    expect(removal.body.status).toBe('pending_review')
    const before = await auditLog(sb)
    await withPage(browser(), 'glance-confirm', async (page) => {
      await openConsole(page, sb, 'queue')
      await page.getByLabel('Reviewer name').fill('Rey Reviewer')
      // Approving a removal: it names the consequence (for good, cannot be undone).
      const removeCard = page.locator(`article[data-audit-id="${removal.body.audit_id}"]`)
      await removeCard.getByRole('button', { name: /^Approve/ }).click()
      const dialog = page.getByRole('dialog')
      expect(await dialog.innerText()).toMatch(/Removes “[^”]+”.*for good.*cannot be enabled again.*This cannot be undone\./s)
      expect(await focusedText(page)).toBe('Cancel')
      expect(await axeViolations(page)).toEqual([])
      await enterFiveTimes(page)
      // Approving a write that spends money.
      const enableCard = page.locator(`article[data-audit-id="${enable.auditId}"]`)
      await enableCard.getByRole('button', { name: /^Approve/ }).click()
      expect(await focusedText(page)).toBe('Cancel')
      await enterFiveTimes(page)
      // Resetting the world: names what goes, with the number of audit entries.
      await page.getByRole('link', { name: 'World' }).click()
      await page.getByRole('button', { name: 'Reset world…' }).click()
      expect(await dialog.innerText()).toMatch(new RegExp(`Drops all state — ${before.total} audit entries, .*the request journal.*This cannot be undone\\.`, 's'))
      expect(await focusedText(page)).toBe('Cancel')
      expect(await axeViolations(page)).toEqual([])
      await enterFiveTimes(page)
      await page.getByRole('status').filter({ hasText: 'Not reset: nothing changed.' }).waitFor()
    })
    // Nothing happened: both writes still wait, the campaign is as it was, the audit is whole.
    expect((await audit(sb, removal.body.audit_id!)).status).toBe('pending_review')
    expect((await audit(sb, enable.auditId)).status).toBe('pending_review')
    expect((await campaign(sb, target)).status).toBe(enable.campaign.status)
    expect((await auditLog(sb)).total).toBe(before.total)
  })

  it('an audit row says what happened to what, by whom and through what; money has one format and a real minus', async () => {
    sandbox = await createSandbox()
    const sb = sandbox
    const enabled = (await sb.control.request<{ workspaces: Array<{ campaigns: Array<{ id: string; status: string; campaign_name: string; daily_budget: number }> }> }>('GET', '/console/overview'))
      .workspaces[0].campaigns.find((c) => c.status === 'ENABLED')!
    const cut = await runTool(sb, 'agent', 'update_campaign_budget', ['--campaign-id', enabled.id, '--daily-budget', String(enabled.daily_budget - 20)])
    expect(cut.status).toBe(200)
    await withPage(browser(), 'glance-audit', async (page) => {
      await openConsole(page, sb, 'audit')
      const row = page.locator(`details[data-audit-id="${cut.body.audit_id}"] > summary`)
      const usd = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`
      await row.getByText(`Daily budget of “${enabled.campaign_name}”`).waitFor()
      const text = await row.innerText()
      expect(text).toContain(`Daily budget of “${enabled.campaign_name}”: ${usd(enabled.daily_budget)} → ${usd(enabled.daily_budget - 20)} (\u2212$20.00/day)`)
      expect(text).toContain('ran at once')
      expect(text).toContain('asked by key “agent” (issued to Olivia Owner) via the tools endpoint (POST /api/v1/tools/run)')
      expect(text).not.toMatch(/via rest|via backend|-\$/)
      // Laid out at every width from 40 to 400 px, the console's text (dom.js and the transcript's toDom) never puts a
      // sign and its amount on two lines, and reads exactly as written; the same text set plainly does split (the check can fail).
      // As text: vitest would rewrite an `import()` inside a function handed to the page.
      const splits = await page.evaluate(`(async () => {
        const { h } = await import(new URL('js/dom.js', location.href).href)
        const sample = 'Daily budget of “Spring Sale – Search”: $210.00 → $190.00 (\\u2212$20.00/day), then (+€90.00/day) and (\\u2212CHF\\u00a020.00)'
        // How often, over the widths, a sign and the character after it land on two lines.
        const count = (p) => {
          document.body.append(p)
          const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT)
          const nodes = []
          for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n)
          const top = (node, from) => { const r = document.createRange(); r.setStart(node, from); r.setEnd(node, from + 1); return r.getClientRects()[0]?.top ?? 0 }
          let split = 0
          for (let width = 40; width <= 400; width++) {
            p.style.width = width + 'px'
            for (const node of nodes) {
              for (let i = 0; i < node.data.length - 1; i++) {
                if ((node.data[i] === '\\u2212' || node.data[i] === '+') && top(node, i) !== top(node, i + 1)) split++
              }
            }
          }
          p.remove()
          return split
        }
        const plain = document.createElement('p')
        plain.append(document.createTextNode(sample))
        const { toDom } = await import(new URL('js/transcript-markup.js', location.href).href)
        const tree = document.createElement('p')
        tree.append(...toDom([sample]))
        return { console: count(h('p', {}, sample)), transcript: count(tree), plain: count(plain), text: h('p', {}, sample).textContent === sample }
      })()`) as { console: number; transcript: number; plain: number; text: boolean }
      expect(splits).toEqual({ console: 0, transcript: 0, plain: expect.any(Number), text: true })
      expect(splits.plain).toBeGreaterThan(0)
    })
  })

  it('at 390 px the first journal row shows without scrolling, wide tables show they scroll, charts carry units and a balance scaled to it', async () => {
    sandbox = await createSandbox()
    const sb = sandbox
    for (let i = 0; i < 7; i++) expect((await runTool(sb, 'agent', 'list_campaigns', [])).status).toBe(200)
    await withPage(browser(), 'glance-phone', async (page) => {
      await page.setViewportSize({ width: 390, height: 844 })
      await openConsole(page, sb, 'journal')
      const first = page.locator('table.journal tbody tr[data-seq]').first()
      await first.waitFor()
      const top = await first.evaluate((el) => el.getBoundingClientRect().top)
      expect(top, 'first row above the fold').toBeLessThan(844 - 40)
      expect(await page.locator('details.filter-box').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false)
      await page.getByText('Filters').click()
      await page.getByLabel('Script').waitFor()
      // A table wider than its box says so: the box scrolls and draws an edge shadow.
      const region = page.getByRole('region', { name: /Recorded exchanges/ })
      const scroll = await region.evaluate((el) => ({ wide: el.scrollWidth > el.clientWidth, bg: getComputedStyle(el).backgroundImage }))
      expect(scroll.wide).toBe(true)
      expect(scroll.bg).toContain('radial-gradient')
      await page.getByRole('link', { name: 'World' }).click()
      const balance = page.locator('.chart-cell[data-metric="balance"]')
      await balance.locator('.chart-plot[data-y-range]').waitFor()
      expect(await balance.locator('h5').innerText()).toContain('(credits at day end)')
      const [min, max] = (await balance.locator('.chart-plot').getAttribute('data-y-range'))!.split('..').map(Number)
      // 1 000 credits less 7 reads: the axis spans the drop, not 0-1 000.
      expect(min).toBeGreaterThan(900)
      expect(max - min).toBeLessThan(50)
      expect(await page.locator('.chart-cell[data-metric="cost"] h5').innerText()).toContain('(USD per day)')
      expect(await axeViolations(page)).toEqual([])
    })
  })
})

// Only without Chromium (and never under CI=true, see test-support/browser.ts): one skip that names the reason.
if (!CHROMIUM) {
  describe('the console at a glance (issue 37)', () => {
    it.skip(`skipped: ${SKIP_REASON}`, () => undefined)
  })
}
