// Issue 35: what loading a tool catalog adds to a `serve` process, measured in a fresh node
// (run with --expose-gc): the modules serve has loaded anyway are imported first, then the catalog
// is loaded as `serve --catalog` loads it. Prints one JSON line: wall ms, CPU ms, RSS MB added.
// Usage: node --expose-gc bench/lib/catalog-probe.mjs <repo root> <catalog file>
const [root, file] = process.argv.slice(2)
await import(`${root}/dist/src/sandbox.js`)
await import(`${root}/dist/src/mcp/hosted.js`)
globalThis.gc?.()
const rss0 = process.memoryUsage().rss
const cpu0 = process.cpuUsage()
const t0 = performance.now()
const { loadCatalog } = await import(`${root}/dist/src/store/catalog-file.js`)
const { isModelledTool } = await import(`${root}/dist/src/mcp/modelled-tools.js`)
const catalog = await loadCatalog(file, isModelledTool)
const ms = performance.now() - t0
const cpu = process.cpuUsage(cpu0)
globalThis.gc?.()
const rss1 = process.memoryUsage().rss
process.stdout.write(`${JSON.stringify({ tools: catalog.tools.length, ms, cpu_ms: (cpu.user + cpu.system) / 1000, rss_mb: (rss1 - rss0) / 2 ** 20 })}\n`)
