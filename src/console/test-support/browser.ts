import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { chromium } from 'playwright-core'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'

/**
 * Debian's Chromium (`apt-get install -y chromium`), the real binary before its shell wrapper;
 * `CHROMIUM_PATH` names another binary instead.
 */
export const CHROMIUM_CANDIDATES = process.env.CHROMIUM_PATH ? [process.env.CHROMIUM_PATH] : ['/usr/lib/chromium/chromium', '/usr/bin/chromium']
export const CHROMIUM = CHROMIUM_CANDIDATES.find((p) => existsSync(p)) ?? null
export const SKIP_REASON = `no Chromium binary (looked at ${CHROMIUM_CANDIDATES.join(', ')}); install it with \`apt-get install -y chromium\``

// Without Chromium the browser tests skip locally; under CI=true that skip would go unnoticed, so
// loading this module fails the browser test files instead.
if (!CHROMIUM && /^(1|true)$/i.test(process.env.CI ?? '')) throw new Error(`CI=true and ${SKIP_REASON}`)

export const ARTIFACTS_DIR = 'test-artifacts'

export function launchChromium(): Promise<Browser> {
  if (!CHROMIUM) throw new Error(SKIP_REASON)
  return chromium.launch({ executablePath: CHROMIUM, headless: true })
}

/** Saves a full-page screenshot as `test-artifacts/<name>.png` (or into `dir`); returns its path. */
export async function screenshot(page: Page, name: string, dir = ARTIFACTS_DIR): Promise<string> {
  await mkdir(dir, { recursive: true })
  const path = join(dir, `${name.replace(/[^a-z0-9-]+/gi, '-').toLowerCase()}.png`)
  await page.screenshot({ path, fullPage: true })
  return path
}

/**
 * Runs a browser step on a fresh page; on failure saves a screenshot to `test-artifacts/` and
 * rethrows with its path, so CI keeps the evidence.
 */
export async function withPage<T>(browser: Browser, name: string, run: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
  // Fail a step well inside the test timeout, so the screenshot below is still taken.
  context.setDefaultTimeout(8_000)
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  try {
    const result = await run(page)
    if (errors.length) throw new Error(`uncaught error(s) in the page: ${errors.join('; ')}`)
    return result
  } catch (error) {
    const path = await screenshot(page, `console-${name}`).catch(() => 'none')
    if (error instanceof Error) error.message += `\n(screenshot: ${path})`
    throw error
  } finally {
    await context.close()
  }
}

/** One Chromium for a test file: launched before its tests and closed after them (none without Chromium). */
export function chromiumForFile(): () => Browser {
  let browser: Browser | undefined
  beforeAll(async () => {
    if (CHROMIUM) browser = await launchChromium()
  }, 30_000)
  afterAll(async () => {
    await browser?.close()
  })
  return () => browser as Browser
}
