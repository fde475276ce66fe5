import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'conformance/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: ['dist/**', 'node_modules/**'],
    testTimeout: 20_000,
    pool: 'forks',
    reporters: ['default', './src/test-support/summary-reporter.ts'],
  },
})
