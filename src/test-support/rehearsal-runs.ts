import type { RunResult } from '../rehearse/metrics.js'

/** A finished rehearsal run for report and metrics tests: a passing, clean, checked run unless told otherwise. */
export function fakeRun(over: Partial<RunResult> & { task: string }): RunResult {
  return {
    file: `${over.task}.yaml`, passed: true, reasons: [], checks: [{ name: 'target status', passed: true, expected: 'PAUSED', actual: 'PAUSED' }], findings: [], reviews: [], transcript: [],
    efficiency: { calls: 1, credits: 0, sandbox_seconds: 0, wall_ms: 1 },
    agent: { code: 0, signal: null, stopped: null, stdout: '', stderr: '' },
    ...over,
  }
}
