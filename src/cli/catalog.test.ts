import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { RunningSandbox } from '../create-sandbox.js'
import { createSandbox } from '../create-sandbox.js'
import { KEYS } from '../test-support/http.js'
import { syntheticCatalog } from '../test-support/synthetic-catalog.js'
import { runPull } from './catalog.js'
import { keyHeadersOf, recordableUrl } from '../client/mcp-catalog.js'
import { catalogDrift } from './conform-catalog-drift.js'
import { runDriftCli } from './conform-drift.js'
import { compareCatalogs, renderCatalogDrift } from '../../conformance/catalog-drift.js'

let dir: string
let live: RunningSandbox
const tools = syntheticCatalog()

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalog-pull-'))
  // A server that pages: 7 tools a page, so a pull must follow nextCursor 30 times.
  live = await createSandbox({ catalog: { tools }, mcpPageSize: 7 })
})
afterAll(async () => {
  await live.close()
})

describe('adops-sandbox catalog pull (issue 35 item 5)', () => {
  it('writes every page of a live server\'s tools/list, exactly as sent, and never the key', async () => {
    const out = join(dir, 'pulled.json')
    const log: string[] = []
    const code = await runPull({ url: `${live.baseUrl}/mcp?token=${KEYS.owner}`, out, keyHeader: ['X-Service-Key'] }, KEYS.owner, (l) => log.push(l))
    expect(code).toBe(0)
    const text = await readFile(out, 'utf8')
    expect(text).not.toContain(KEYS.owner)
    const snapshot = JSON.parse(text)
    expect(snapshot.tools.slice(0, tools.length)).toEqual(tools)
    expect(snapshot.pulled).toMatchObject({ url: `${live.baseUrl}/mcp`, server: { name: 'adops-sandbox' } })
    expect(snapshot.pulled.pages).toBe(Math.ceil(snapshot.tools.length / 7))
    expect(log.join('\n')).toContain(`wrote ${snapshot.tools.length} tools`)
    // What it wrote is a snapshot `serve --catalog` loads.
    const again = await createSandbox({ catalog: out })
    const repull = join(dir, 'repull.json')
    expect(await runPull({ url: `${again.baseUrl}/mcp`, out: repull }, KEYS.owner, () => undefined)).toBe(0)
    expect(JSON.parse(await readFile(repull, 'utf8')).tools).toEqual(snapshot.tools)
    await again.close()
  })

  it('sends the key under each --key-header (Authorization as Bearer) and records URLs without credentials', () => {
    expect(keyHeadersOf('k1', ['X-Other-Key', 'Authorization'])).toEqual({ 'X-Other-Key': 'k1', Authorization: 'Bearer k1' })
    expect(keyHeadersOf('k1')).toEqual({ 'X-Service-Key': 'k1' })
    expect(keyHeadersOf(undefined, ['X-Other-Key'])).toEqual({})
    expect(recordableUrl('https://user:pw@mcp.example.com/mcp/?key=k1#x')).toBe('https://mcp.example.com/mcp/')
  })

  it.each([
    ['a URL that is not one', 'not a url', KEYS.owner, 2, /is not a URL/],
    ['a wrong key', 'LIVE', 'svc_test_nope0000000000000000000000000000', 3, /could not read tools\/list/],
    ['a server that is not there', 'http://127.0.0.1:9/mcp', KEYS.owner, 3, /could not read tools\/list from http:\/\/127\.0\.0\.1:9\/mcp/],
  ])('exits with a clear line for %s, writing nothing', async (_label, url, key, code, message) => {
    const out = join(dir, `none-${code}.json`)
    const log: string[] = []
    expect(await runPull({ url: url === 'LIVE' ? `${live.baseUrl}/mcp` : url, out }, key, (l) => log.push(l))).toBe(code)
    expect(log.join('\n')).toMatch(message)
    expect(log.join('\n')).not.toContain(key)
    await expect(readFile(out)).rejects.toThrow()
  })
})

describe('catalog drift (conform --drift, issue 35 item 5)', () => {
  it('names tools added and removed, schema and annotation changes', () => {
    const [a, b, c, ...rest] = tools
    const changedSchema = { ...b, inputSchema: { ...b.inputSchema, properties: { ...(b.inputSchema.properties as object), extra: { type: 'string' } }, required: ['extra'] } }
    const changedNotes = { ...c, annotations: { ...c.annotations, externalMutation: !c.annotations.externalMutation } }
    const target = [changedSchema, changedNotes, ...rest, { ...a, name: 'brand_new_tool' }]
    const drift = compareCatalogs(tools, target)
    expect(drift.added).toEqual(['brand_new_tool'])
    expect(drift.removed).toEqual([a.name])
    expect(drift.changed).toEqual([
      { name: b.name, changes: [{ aspect: 'schema', where: 'properties.extra', sandbox: 'absent', target: 'present' }, { aspect: 'schema', where: 'required', sandbox: [], target: ['extra'] }] },
      { name: c.name, changes: [{ aspect: 'annotation', where: 'externalMutation', sandbox: c.annotations.externalMutation, target: !c.annotations.externalMutation }] },
    ])
    expect(renderCatalogDrift(drift, 'target')).toContain('catalog drift: 1 added, 1 missing, 2 changed')
    expect(renderCatalogDrift(compareCatalogs(tools, tools), 'target')).toContain('catalog drift: none')
  })

  it('compares a fresh sandbox serving --catalog with a live target over MCP', async () => {
    const file = join(dir, 'mine.json')
    await writeFile(file, JSON.stringify({ tools: tools.slice(1) }))
    const outcome = await catalogDrift({ mcpUrl: `${live.baseUrl}/mcp`, key: KEYS.owner, catalog: file })
    expect(outcome).toMatchObject({ drift: { added: [tools[0].name], removed: [], changed: [] } })
  })

  it('conform --drift --catalog-only exits 1 on drift, 0 without, and prints the catalog report', async () => {
    const file = join(dir, 'same.json')
    await writeFile(file, JSON.stringify({ tools }))
    const printed: string[] = []
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (printed.push(String(chunk)), true))
    try {
      const opts = { baseUrl: live.baseUrl, apiUrl: live.apiUrl, key: [`owner=${KEYS.owner}`], jobs: 1, contract: 'off' as const, baseline: false as const, drift: true, catalogOnly: true }
      expect(await runDriftCli([], opts)).toBe(1)
      expect(printed.join('')).toContain('catalog drift: 200 added')
      expect(await runDriftCli([], { ...opts, catalog: file })).toBe(0)
      expect(printed.join('')).toContain('catalog drift: none')
      expect(printed.join('')).not.toContain(KEYS.owner)
    } finally {
      spy.mockRestore()
    }
  })
})
