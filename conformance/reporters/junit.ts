import type { RunResult } from '../runner.js'
import type { Secrets } from '../secrets.js'
import type { ScenarioResult } from '../types.js'
import { esc, firstFailure, transcript } from './format.js'

/**
 * JUnit XML: a suite per scenario folder, a test case per scenario, covered rule ids and tags as
 * properties, the step transcript in system-out. Baselined failures are reported as skipped.
 */
export function junitXml(run: RunResult, secrets: Secrets): string {
  const suites = new Map<string, ScenarioResult[]>()
  for (const r of run.scenarios) {
    const suite = r.file.split('/').slice(0, -1).join('/') || 'scenarios'
    suites.set(suite, [...(suites.get(suite) ?? []), r])
  }
  const s = run.summary
  const out = [`<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="adops-sandbox conform" tests="${run.scenarios.length}" failures="${s.failed + s.stale}" skipped="${s.skipped + s.expected_failures}" time="${secs(s.duration_ms)}">`]
  for (const [name, results] of suites) {
    const failures = results.filter(isFailure).length
    const skipped = results.filter((r) => r.outcome === 'skipped' || (r.baseline && !r.baseline.stale)).length
    out.push(`  <testsuite name="${esc(name)}" tests="${results.length}" failures="${failures}" skipped="${skipped}" time="${secs(results.reduce((n, r) => n + r.duration_ms, 0))}">`)
    for (const r of results) out.push(testcase(r, name, secrets))
    out.push('  </testsuite>')
  }
  out.push('</testsuites>', '')
  return out.join('\n')
}

function testcase(r: ScenarioResult, suite: string, secrets: Secrets): string {
  const props = [...r.covers.map((c) => ['covers', c]), ...r.tags.map((t) => ['tag', t]), ['file', r.file]]
  const lines = [`    <testcase classname="${esc(suite.replace(/\//g, '.'))}" name="${esc(`${r.id}: ${r.title}`)}" time="${secs(r.duration_ms)}">`,
    `      <properties>${props.map(([n, v]) => `<property name="${n}" value="${esc(v)}"/>`).join('')}</properties>`]
  if (r.outcome === 'skipped') lines.push(`      <skipped message="${esc(r.reason ?? '')}"/>`)
  else if (r.baseline && !r.baseline.stale) lines.push(`      <skipped message="${esc(`expected failure (baseline): ${r.baseline.reason}`)}"/>`)
  else if (r.baseline?.stale) lines.push(`      <failure message="${esc(`stale baseline entry: the scenario passed (${r.baseline.reason})`)}" type="stale-baseline"/>`)
  else if (r.outcome === 'failed') {
    const step = firstFailure(r.steps)
    lines.push(`      <failure message="${esc(secrets.redact(r.reason ?? ''))}" type="${step?.violations.some((v) => v.severity === 'error') ? 'contract' : 'assertion'}">${esc(secrets.redact(JSON.stringify(step?.diff ?? [], null, 2)))}</failure>`)
  }
  lines.push(`      <system-out>${esc(transcript(r.steps, secrets))}</system-out>`, '    </testcase>')
  return lines.join('\n')
}

function isFailure(r: ScenarioResult): boolean {
  return (r.outcome === 'failed' && !r.baseline) || r.baseline?.stale === true
}

function secs(ms: number): string {
  return (ms / 1000).toFixed(3)
}

