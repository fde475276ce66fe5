import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type { TestSandbox } from '../test-support/http.js'
import { KEYS, startSandbox } from '../test-support/http.js'
import { RestClient } from '../client/rest-client.js'
import { loadCatalog } from '../store/catalog-file.js'
import { worldsDir } from '../store/world-file.js'
import { buildSandbox } from '../sandbox.js'
import { createMcpServer } from './server.js'
import { restBackend } from './rest-backend.js'
import { isModelledTool } from './modelled-tools.js'
import { call, listAllTools } from './mcp-test-support.js'

// A catalog from some other service: other names, no `effect` annotations, only the MCP hints.
const OTHER_SERVICE = [
  { name: 'acme.reports.daily_spend', description: 'Daily spend by channel (3 credits).', inputSchema: { type: 'object', properties: { days: { type: 'integer', default: 14 } } }, annotations: { readOnlyHint: true } },
  { name: 'acme.orders.search', description: 'Search orders.', inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] }, annotations: { readOnlyHint: true } },
  { name: 'acme.pricing.set', description: 'Set a price.', inputSchema: { type: 'object', properties: { sku: { type: 'string' }, price: { type: 'number' } }, required: ['sku', 'price'] }, annotations: { readOnlyHint: false, destructiveHint: true } },
]

let sb: TestSandbox
let file: string

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'catalog-'))
  file = join(dir, 'other.json')
  await writeFile(file, JSON.stringify(OTHER_SERVICE))
  sb = await startSandbox({ catalog: file })
})
afterAll(async () => {
  await sb.close()
})

describe('a catalog from another service, over REST (issue 35 item 4)', () => {
  it('lists its tools in GET /api/v1/tools after the sandbox\'s own, marked simulated, with the cost the description states', async () => {
    const res = await sb.base('GET', '/api/v1/tools?q=acme', { key: KEYS.owner })
    expect(res.status).toBe(200)
    expect(res.body.tools.map((t: { name: string }) => t.name)).toEqual(OTHER_SERVICE.map((t) => t.name))
    expect(res.body.tools[0]).toMatchObject({ kind: 'read', credit_cost: 3, executable: true, snapshot: { effect: 'read', family: 'performance', simulated: true } })
    expect(res.body.tools[2]).toMatchObject({ kind: 'write', operation: 'update', snapshot: { effect: 'write', external_mutation: false } })
    const one = await sb.base('GET', '/api/v1/tools/acme.orders.search', { key: KEYS.owner })
    expect(one.body).toMatchObject({ name: 'acme.orders.search', snapshot: { family: 'list' } })
    expect((await sb.base('GET', '/api/v1/tools/run', { key: KEYS.owner })).body.tools).toContain('acme.pricing.set')
  })

  it('dispatches a simulated tool with --name=<JSON> args, validating them against the inputSchema', async () => {
    const ok = await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: { script_name: 'acme.reports.daily_spend', args: ['--days=3'] } })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ simulated: true, credits_used: 3, date_range: { days: 3 } })
    const bad = await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: { script_name: 'acme.orders.search', args: [] } })
    expect(bad).toMatchObject({ status: 400, body: { code: 'INVALID_ARGS', flag: 'query' } })
    const notJson = await sb.base('POST', '/api/v1/tools/run', { key: KEYS.owner, body: { script_name: 'acme.orders.search', args: ['--query', 'x'] } })
    expect(notJson).toMatchObject({ status: 400, body: { code: 'INVALID_ARGS' } })
  })

  it('serves the same tools through the stdio server\'s REST backend (mcp --catalog)', async () => {
    const catalog = await loadCatalog(file, isModelledTool)
    const server = createMcpServer({ catalog, backend: restBackend(new RestClient({ apiKey: KEYS.owner, baseUrl: sb.baseUrl, apiUrl: sb.apiUrl }), { baseUrl: sb.baseUrl }) })
    const [a, b] = InMemoryTransport.createLinkedPair()
    const client = new Client({ name: 'stdio-path', version: '0' })
    await Promise.all([server.connect(a), client.connect(b)])
    expect((await listAllTools(client)).tools.slice(0, 3).map((t) => t.name)).toEqual(OTHER_SERVICE.map((t) => t.name))
    const orders = await call(client, 'acme.orders.search', { query: 'shoes' })
    expect(orders.structuredContent).toMatchObject({ simulated: true, tool: 'acme.orders.search' })
    expect(orders.structuredContent?.items.length).toBeGreaterThan(0)
    // The default policy does not hold a non-external write of no known class: it runs, acknowledged.
    const price = await call(client, 'acme.pricing.set', { sku: 'A1', price: 3 })
    expect(price.structuredContent).toMatchObject({ simulated: true, status: 'accepted', world_changed: false })
    await client.close()
  })

  it('loads the catalog a world file names, relative to the world file; createSandbox({ catalog }) wins over it', async () => {
    const world = join(file, '..', 'world.yaml')
    await writeFile(world, `${await readFile(join(worldsDir(), 'default.yaml'), 'utf8')}\ncatalog: other.json\n`)
    const fromWorld = await buildSandbox({ world })
    expect(fromWorld.ctx.deps.snapshot?.tools.map((t) => t.name)).toEqual(OTHER_SERVICE.map((t) => t.name))
    await fromWorld.close()
    const given = await buildSandbox({ world, catalog: { tools: [OTHER_SERVICE[1]] } })
    expect(given.ctx.deps.snapshot?.tools.map((t) => t.name)).toEqual(['acme.orders.search'])
    await given.close()
  })

  it('refuses a catalog file that is not a tools/list result, naming the file and the problem', async () => {
    const bad = join(file, '..', 'bad.json')
    await writeFile(bad, JSON.stringify({ tools: [{ name: 'x' }] }))
    await expect(startSandbox({ catalog: bad })).rejects.toThrow(/bad\.json: tools\[0\] \(x\): "inputSchema" must be a JSON Schema object/)
    await expect(startSandbox({ catalog: join(file, '..', 'missing.json') })).rejects.toThrow(/missing\.json cannot be read: no such file/)
  })
})
