import { execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const exec = promisify(execFile)
const REPO = resolve(import.meta.dirname, '..')

/** Newest modification time of the TypeScript sources the build compiles. */
async function newestSource(dir: string): Promise<number> {
  let newest = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts')) continue
    newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs)
  }
  return newest
}

/** `dist/` newer than every source (as after `npm ci`, which builds via `prepare`): packing need not rebuild. */
async function distIsFresh(): Promise<boolean> {
  const main = join(REPO, 'dist/src/main.js')
  if (!existsSync(main)) return false
  const built = (await stat(main)).mtimeMs
  return Math.max(await newestSource(join(REPO, 'src')), await newestSource(join(REPO, 'conformance'))) < built
}

/**
 * The package as users get it (issue 15): `npm pack`, then `npm install --omit=dev <tarball>` into
 * an empty project, from the npm cache. Everything below runs from that project, never the repo.
 */
describe('adops-sandbox installed from its tarball with production dependencies only', { timeout: 300_000 }, () => {
  let app = ''
  const bin = () => join(app, 'node_modules/adops-sandbox/dist/src/main.js')
  const fixtures = () => join(app, 'node_modules/adops-sandbox/conformance/test-fixtures/pass')

  beforeAll(async () => {
    app = await mkdtemp(join(tmpdir(), 'adops-pack-'))
    const scripts = (await distIsFresh()) ? ['--ignore-scripts'] : []
    await exec('npm', ['pack', '--pack-destination', app, '--silent', ...scripts], { cwd: REPO, maxBuffer: 1 << 24 })
    const tarball = (await readdir(app)).find((f) => f.endsWith('.tgz'))!
    expect(tarball).toMatch(/^adops-sandbox-\d+\.\d+\.\d+.*\.tgz$/)
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'pack-probe', private: true, type: 'module' }))
    // As the docs say it (docs/conformance.md "Installing"): a relative path to the tarball, from the user's own folder.
    await exec('npm', ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', `./${tarball}`], { cwd: app, maxBuffer: 1 << 24 })
  }, 600_000)
  afterAll(async () => {
    if (app) await rm(app, { recursive: true, force: true })
  })

  it('is a project outside the clone: nothing there resolves to the repository', () => {
    expect(app.startsWith(REPO)).toBe(false)
    expect(REPO.startsWith(app)).toBe(false)
  })

  it('installs no dev dependency (so nothing below can lean on one)', () => {
    for (const dev of ['vitest', 'tsx', 'typescript', '@stoplight/prism-cli']) expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false)
    expect(existsSync(join(app, 'node_modules/@stoplight/prism-http'))).toBe(true)
  })

  it('serve starts, answers on both hosts and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, [bin(), 'serve', '--state', 'memory', '--port', '0', '--api-port', '0', '--json', '--log-level', 'silent'], { cwd: app, stdio: ['ignore', 'pipe', 'inherit'] })
    const exited = new Promise<number | null>((done) => child.once('exit', done))
    try {
      const [line] = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next().then((r) => [r.value as string])
      const banner = JSON.parse(line) as { base_url: string; api_url: string; admin_token: string }
      const me = await fetch(`${banner.api_url}/v1/me`)
      expect(me.status).toBe(401)
      expect(await me.json()).toMatchObject({ code: 'AUTHENTICATION_REQUIRED' })
      expect((await fetch(`${banner.base_url}/_sandbox/info`)).status).toBe(401)
      expect((await fetch(`${banner.base_url}/_sandbox/info`, { headers: { 'x-sandbox-admin': banner.admin_token } })).status).toBe(200)
    } finally {
      child.kill('SIGTERM')
    }
    expect(await exited).toBe(0)
  })

  it.each(['inline', 'off'])('conform runs the kit against the in-process sandbox with --contract %s', async (contract) => {
    const { stdout } = await exec(process.execPath, [bin(), 'conform', fixtures(), '--contract', contract, '--no-baseline'], { cwd: app, env: { ...process.env, NO_COLOR: '1' } })
    expect(stdout.trim().split('\n').at(-1)).toBe('2 passed, 0 failed')
  })

  it('conform --contract prism-proxy says which dev-only package it needs, exit 2, without a stack trace', async () => {
    const failure = await exec(process.execPath, [bin(), 'conform', fixtures(), '--contract', 'prism-proxy'], { cwd: app }).then(() => null, (e: { code: number; stderr: string }) => e)
    expect(failure?.code).toBe(2)
    expect(failure?.stderr).toMatch(/^conform: @stoplight\/prism-cli is not installed; this run needs it: npm install --save-dev @stoplight\/prism-cli@5\.14\.2/)
    expect(failure?.stderr).not.toMatch(/\n\s+at /)
  })

  it("import('adops-sandbox/conformance') gives the library, which loads and runs scenarios", async () => {
    const script = `const kit = await import('adops-sandbox/conformance')
const run = await kit.runScenarios({ paths: [${JSON.stringify(fixtures())}], baseline: null })
console.log(JSON.stringify({ exports: Object.keys(kit).sort(), summary: run.summary, exitCode: run.exitCode }))`
    const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', script], { cwd: app })
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as { exports: string[]; summary: { passed: number; failed: number }; exitCode: number }
    expect(out.exports).toEqual(expect.arrayContaining(['runScenarios', 'loadScenarios', 'ttyReporter', 'registerStepKind', 'Contract']))
    expect(out.summary).toMatchObject({ passed: 2, failed: 0 })
    expect(out.exitCode).toBe(0)
  })

  it('a module of the user\'s own imports createSandbox and runScenarios, runs the kit against that sandbox and loads the console\'s files', async () => {
    // A file in the user's project, as they would write it (issue 37): two entry points of the package.
    const probe = `import { createSandbox } from 'adops-sandbox'
import { runScenarios } from 'adops-sandbox/conformance'
const sandbox = await createSandbox()
try {
  const run = await runScenarios({ paths: [${JSON.stringify(fixtures())}], baseline: null, target: { kind: 'url', baseUrl: sandbox.baseUrl, ...(sandbox.adminToken ? { adminToken: sandbox.adminToken } : {}) } })
  const page = await fetch(\`\${sandbox.baseUrl}/_sandbox/console/\`)
  const script = await fetch(\`\${sandbox.baseUrl}/_sandbox/console/js/app.js\`)
  const chart = await fetch(\`\${sandbox.baseUrl}/_sandbox/console/vendor/uPlot.iife.min.js\`)
  console.log(JSON.stringify({
    summary: run.summary, exitCode: run.exitCode,
    page: [page.status, (await page.text()).includes('<title')], script: [script.status, (await script.text()).includes('import')],
    chart: [chart.status, (await chart.text()).length > 1000],
  }))
} finally {
  await sandbox.close()
}
`
    await writeFile(join(app, 'probe.mjs'), probe)
    const { stdout } = await exec(process.execPath, ['probe.mjs'], { cwd: app })
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>
    expect(out).toMatchObject({ summary: { passed: 2, failed: 0 }, exitCode: 0, page: [200, true], script: [200, true], chart: [200, true] })
  })

  it('the adops-sandbox bin is on the project\'s path (npx adops-sandbox --version)', async () => {
    const { stdout } = await exec(join(app, 'node_modules/.bin/adops-sandbox'), ['--version'], { cwd: app })
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
  })
})
