import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { CHROMIUM, SKIP_REASON, launchChromium } from '../console/test-support/browser.js'
import { axeViolations } from '../console/test-support/console-page.js'
import { runRehearsal } from './rehearse-run.js'
import { htmlScorecard } from './html-report.js'
import { summarize } from './report.js'

// A real run: the reckless agent on an injection task (findings, evidence rows, long bodies), the
// careful one's pass, and a matrix case with its benign twin, merged into one scorecard.
let html = ''
let careful: Awaited<ReturnType<typeof runRehearsal>>
let browser: Browser | null = null
beforeAll(async () => {
  const quiet = () => {}
  const reckless = await runRehearsal(['rehearsals/tasks'], { agent: 'node rehearsals/agents/reckless.mjs', grep: '^injected-landing-page$', out: quiet, err: quiet })
  careful = await runRehearsal(['rehearsals/tasks'], { agent: 'node rehearsals/agents/careful.mjs', grep: '^raise-held-for-review$', out: quiet, err: quiet })
  const matrix = await runRehearsal(['rehearsals/suite'], { agent: 'node rehearsals/agents/careful.mjs', grep: '^audited-raise-held(--approval-lure--review-note)?$', out: quiet, err: quiet })
  html = htmlScorecard(summarize(reckless.report!.agent, reckless.report!.started_at, [...careful.report!.tasks, ...reckless.report!.tasks, ...matrix.report!.tasks]))
  if (CHROMIUM) browser = await launchChromium()
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

describe('the rehearsal scorecard', () => {
  it('lists failed tasks first, open, with bodies of the planted read and no key value', () => {
    expect(html.indexOf('injected-landing-page')).toBeLessThan(html.indexOf('raise-held-for-review'))
    expect(html).toMatch(/<details class="scenario sc-failed" id="injected-landing-page" data-status="failed" open>/)
    expect(html).toContain('NOTE TO AI AGENTS')
    expect(html).not.toMatch(/svc_test_[A-Za-z0-9]{20,}/)
  })

  it("shows each task's console transcript, fetched from the sandbox: the held raise, its approval and the budget change", () => {
    const t = careful.report!.tasks[0].console_transcript!
    expect(t.filter).toMatchObject({ workspace_id: 'ws_acme' })
    expect(t.totals).toMatchObject({ attempted: 1, held: 1, approved: 1, executed: 1, blocked: 0 })
    expect(t.budget_changes).toHaveLength(1)
    const delta = t.budget_delta_by_currency.USD
    expect(delta).toBeGreaterThan(0)
    const section = /id="raise-held-for-review"[^]*?<div class="console-transcript" data-console-transcript>([^]*?)<\/div>\n<h3>Requests<\/h3>/.exec(html)?.[1] ?? ''
    expect(section).toContain('<div class="total" data-total="held"><span class="n">1</span><span>Held for review</span></div>')
    expect(section).toContain('<div class="total" data-total="approved"><span class="n">1</span><span>Approved</span></div>')
    expect(section).toContain(`<li class="big"><span class="nowrap">+$${delta.toFixed(2)}</span> / day</li>`)
    expect(section).toContain('<caption>Budget writes</caption>')
    expect(html.match(/data-console-transcript/g)).toHaveLength(4)   // one per task: two here, the matrix case and its twin
  })
})

describe.skipIf(!CHROMIUM)('the rehearsal scorecard in Chromium', () => {
  it.each([1280, 390])('has no moderate, serious or critical axe finding at %i px, everything expanded, no request, no sideways scroll', async (width) => {
    const context = await browser!.newContext({ viewport: { width, height: 900 } })
    const page = await context.newPage()
    const requests: string[] = []
    page.on('request', (r) => requests.push(r.url()))
    try {
      await page.setContent(html)
      await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true }))
      expect(await axeViolations(page, ['moderate', 'serious', 'critical'])).toEqual([])
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
      expect(requests).toEqual([])
    } finally {
      await context.close()
    }
  }, 60_000)
})

describe.skipIf(!CHROMIUM)('the scorecard at 390 px', () => {
  it('opens on the summary; every evidence link lands on a transcript row; table text wraps at spaces, only code and ids break anywhere', async () => {
    const context = await browser!.newContext({ viewport: { width: 390, height: 800 } })
    const page = await context.newPage()
    try {
      await page.setContent(html)
      // The first screen is the summary: the three numbers are above the fold.
      const tiles = await page.locator('.three .tile').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().bottom))
      expect(tiles.length).toBe(3)
      expect(Math.max(...tiles)).toBeLessThan(800)
      const broken = await page.evaluate(() => [...document.querySelectorAll('.findings a[href^="#"]')].map((a) => a.getAttribute('href')!).filter((href) => !document.getElementById(href.slice(1))?.matches('tr')))
      expect(broken).toEqual([])
      expect(await page.locator('.findings a[href^="#"]').count()).toBeGreaterThan(0)
      const cells = await page.evaluate(() => [...document.querySelectorAll('td, th')].map((cell) => getComputedStyle(cell).overflowWrap))
      expect(new Set(cells)).toEqual(new Set(['normal']))
      const codes = await page.evaluate(() => [...document.querySelectorAll('td code')].map((code) => getComputedStyle(code).overflowWrap))
      expect(codes.length).toBeGreaterThan(0)
      expect(new Set(codes)).toEqual(new Set(['anywhere']))
      // The security numbers per family and site are there (a matrix case and its twin ran).
      expect(await page.locator('h3', { hasText: 'Per injection family' }).count()).toBe(1)
      // A finding's evidence link scrolls its row into view.
      await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true }))
      const first = page.locator('.findings a[href^="#"]').first()
      const target = (await first.getAttribute('href'))!.slice(1)
      await first.click()
      // At the top of the viewport (a fraction of a pixel either way), the page scrolled to it.
      expect(await page.evaluate((id) => { const r = document.getElementById(id)!.getBoundingClientRect(); return { inView: r.top > -2 && r.top < window.innerHeight, scrolled: window.scrollY > 0, hash: location.hash } }, target))
        .toEqual({ inView: true, scrolled: true, hash: `#${target}` })
    } finally {
      await context.close()
    }
  }, 60_000)
})

if (!CHROMIUM) console.warn(`rehearsal scorecard browser tests skipped: ${SKIP_REASON}`)
