import { defineConfig } from 'vitest/config'

/**
 * Long-running suites: each takes 10 s or more of wall time on the 2-core machine (a spawned build,
 * a Chromium, a bench run, a heap bound over thousands of requests, real child-process waits).
 * They run in the `slow` project (`npm run test:slow`); `npm test` runs the `fast` project only,
 * and CI (`.ci/run`) runs both (`npm run test:all`). Measured per-file times: CONTRIBUTING.md.
 */
const SLOW = [
  '**/*.browser.test.ts',
  'bench/**/*.test.ts',
  'conformance/pack-install.test.ts',
  'conformance/sdk/broken-adapters.test.ts',
  'conformance/sdk/doc-adapters.test.ts',
  'conformance/sdk/sdk-mode.test.ts',
  'src/cli/serve-kill.test.ts',
  'src/http/journal-memory.test.ts',
  // Every block_tools name × every way of every write on every surface (~900 calls).
  'src/http/block-every-name-full.test.ts',
  'src/fuzz/fuzz.test.ts',
  // conform --explore: hundreds of generated call sequences against planted and clean targets.
  'conformance/explore/explore.test.ts',
  // Spawned servers, adapters and CLIs (child processes, real waits): 9–31 s each.
  'conformance/broken-server.test.ts',
  'conformance/contract.test.ts',
  'conformance/sdk/adapter-process.test.ts',
  'conformance/shared-target.test.ts',
  'conformance/parallel-clocks.test.ts',
  'conformance/suite.test.ts',
  'src/cli/conform-drift.test.ts',
  'src/cli/serve-lock.test.ts',
  'src/cli/serve.test.ts',
  'src/cli/record.test.ts',
  // A 201-step recorded session replayed (~18 s).
  'conformance/record/write-recording.test.ts',
  'src/cli/serve-key-header.test.ts',
  'src/mcp/inspector-cli.test.ts',
  // The official MCP conformance suite on Node 22 (tools/mcp-conformance), one process per scenario.
  'src/mcp/conformance-suite.test.ts',
  'src/mcp/stdio.test.ts',
  'src/mcp/stdio-catalog.test.ts',
  'src/mcp/tool-list.test.ts',
  'src/rehearse/reference-agents.test.ts',
  'src/rehearse/matrix-agents.test.ts',
  // Spawns a misbehaving agent per door it tries (about 12 s).
  'src/rehearse/adversary-agents.test.ts',
  'conformance/cli.test.ts',
  'conformance/ci-recipes.test.ts',
  // Spawns `prism mock` of the contract (seconds to start).
  'conformance/prism-examples.test.ts',
  // Every sh/ts block of the README and docs against a fresh sandbox each page (minutes).
  'src/docs-examples/docs-examples.test.ts',
]
// Files that mock a core module (vi.mock('node:fs')): each keeps a worker of its own, since in the
// shared worker of the `fast` project the store modules are already loaded with the real one.
const OWN_WORKER = ['src/store/durable-file.test.ts', 'src/store/core-document-patches.test.ts', 'src/store/disk-full.test.ts']
const ALL = ['src/**/*.test.ts', 'conformance/**/*.test.ts', 'bench/**/*.test.ts']
const NEVER = ['dist/**', 'node_modules/**']

export default defineConfig({
  test: {
    testTimeout: 20_000,
    pool: 'forks',
    // Stored doc-table rows are deep-frozen in every test run (and in the servers tests spawn), so a
    // change that mutates a row in place instead of replacing it fails loudly (src/store/memory-table.ts).
    env: { SANDBOX_FREEZE_ROWS: '1' },
    // Every fast-check property runs with a pinned seed (FC_SEED overrides it; issue 36).
    setupFiles: ['./src/test-support/fast-check-seed.ts'],
    reporters: ['default', './src/test-support/summary-reporter.ts'],
    projects: [
      // In-process suites share a worker (no fork and re-import per file): that halves their wall time.
      {
        extends: true,
        test: { name: 'fast', include: ALL, exclude: [...NEVER, ...SLOW, ...OWN_WORKER], isolate: false },
      },
      { extends: true, test: { name: 'fast-own-worker', include: OWN_WORKER, exclude: NEVER } },
      { extends: true, test: { name: 'slow', include: SLOW, exclude: NEVER } },
    ],
  },
})
