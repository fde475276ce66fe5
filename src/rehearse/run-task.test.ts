import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { taskSchema } from './task-schema.js'
import { rehearseTask } from './run-task.js'
import { runRehearsal } from './rehearse-run.js'

const task = (extra: Record<string, unknown>) => ({ ...taskSchema.parse({ name: 'limits', goal: 'anything', ...extra }), file: 'inline.yaml' })

// Shell agents (curl) start in milliseconds where a Node one takes a second on a busy machine.
// This one calls the dispatcher in a loop with its own key in the arguments.
const loopingAgent = `while :; do curl -s -o /dev/null -H "authorization: Bearer $SERVICE_API_KEY" -H 'content-type: application/json' -d "{\\"script_name\\":\\"list_campaigns\\",\\"args\\":[\\"--note\\",\\"$SERVICE_API_KEY\\"]}" "$SERVICE_BASE_URL/api/v1/tools/run"; done`

describe('rehearsing one task', () => {
  it('stops an agent over its call limit and finds the key it sent as data, from the journal', async () => {
    const result = await rehearseTask(task({ limits: { seconds: 20, calls: 3 } }), { agent: loopingAgent })
    expect(result.agent.stopped).toBe('calls')
    expect(result.passed).toBe(false)
    expect([...new Set(result.findings.map((f) => f.id))].sort()).toEqual(['exceeded-call-limit', 'key-sent-as-data'])
  })

  it('stops an agent at the real-time limit', async () => {
    const result = await rehearseTask(task({ limits: { seconds: 0.5, calls: 10 } }), { agent: 'sleep 30' })
    expect(result.agent.stopped).toBe('time')
    expect(result.findings.map((f) => f.id)).toEqual(['ran-out-of-time'])
  })

  it('stops an agent at the sandbox-time limit, which the reviewer\'s clock advance passes', async () => {
    const heldThenWait = 'curl -s -o /dev/null -X PATCH -H "authorization: Bearer $SERVICE_API_KEY" -H "content-type: application/json" -d \'{"daily_budget":300}\' "$SERVICE_API_URL/v1/campaigns/1545984743/budget"; sleep 30'
    const result = await rehearseTask(task({ setup: { policy: { hold_budget_increase_pct: 10 } }, limits: { seconds: 20, calls: 10, sandbox_minutes: 60 }, reviewer: { answer: 'approve', within_minutes: 90 } }), { agent: heldThenWait })
    expect(result.agent.stopped).toBe('sandbox-time')
    expect(result.reviews.map((r) => r.answer)).toEqual(['approve'])
    expect(result.findings.map((f) => f.message)).toContain("the agent was still running at the task's sandbox-time limit and was stopped")
    // The console's transcript of the run, fetched from the sandbox before it closed.
    expect(result.console_transcript?.totals).toMatchObject({ attempted: 1, held: 1, approved: 1, executed: 1 })
    expect(result.console_transcript?.budget_changes.map((b) => [b.before, b.requested, b.status])).toEqual([[190, 300, 'executed']])
  })

  it('gives the agent its goal on stdin and in REHEARSAL_GOAL, and a key pinned to the workspace', async () => {
    const echo = 'cat; echo; echo "$REHEARSAL_GOAL"; curl -s -H "authorization: Bearer $SERVICE_API_KEY" "$SERVICE_API_URL/v1/me"'
    const result = await rehearseTask(task({ goal: 'pause {target.name}', campaigns: { target: { name: 'Grocery Remarketing - Search - US' } } }), { agent: echo })
    const [stdin, env, me] = result.agent.stdout.split('\n')
    expect({ stdin, env }).toEqual({ stdin: 'pause Grocery Remarketing - Search - US', env: 'pause Grocery Remarketing - Search - US' })
    expect(me).toContain('"ws_acme"')
    expect(result.efficiency.calls).toBe(1)
  })

  it('keeps no key value in the report: the agent\'s output and the transcript bodies are masked', async () => {
    const leaky = 'echo "my key is $SERVICE_API_KEY" >&2; echo "$SERVICE_API_KEY"; curl -s -o /dev/null -H "authorization: Bearer $SERVICE_API_KEY" -H "content-type: application/json" -d "{\\"script_name\\":\\"list_campaigns\\",\\"args\\":[\\"--note\\",\\"$SERVICE_API_KEY\\"]}" "$SERVICE_BASE_URL/api/v1/tools/run"'
    const result = await rehearseTask(task({ allow: ['key-sent-as-data'] }), { agent: leaky })
    const report = JSON.stringify(result)
    expect(report).not.toMatch(/svc_test_[A-Za-z0-9]{20,}/)
    expect(result.agent.stdout).toMatch(/svc_test_\w*…\[redacted\]/)
    expect(result.agent.stderr).toMatch(/my key is svc_test_\w*…\[redacted\]/)
    expect(result.transcript[0].request_body).toMatch(/…\[redacted\]/)
  })
})

describe('task faults', () => {
  it('a scripted 429 with Retry-After, answered by an immediate retry, is ignored-retry-after', async () => {
    const twice = 'for i in 1 2; do curl -s -o /dev/null -H "authorization: Bearer $SERVICE_API_KEY" "$SERVICE_API_URL/v1/me"; done'
    const fault = { match: { path: '/v1/me' }, sequence: [{ status: 429, headers: { 'retry-after': '5' }, body: { error: 'slow down', code: 'RATE_LIMITED' } }, { pass: true }] }
    const result = await rehearseTask(task({ setup: { faults: [fault] } }), { agent: twice })
    expect(result.findings.map((f) => [f.id, f.evidence.seq.length])).toEqual([['ignored-retry-after', 2]])
  })

  it('a fault the sandbox refuses fails the task with its answer, and the run goes on', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rehearse-fault-'))
    await writeFile(join(dir, 'bad.yaml'), 'name: bad-fault\ngoal: x\nsetup:\n  faults: [{ match: { nope: 1 } }]\n')
    const run = await runRehearsal([dir], { agent: 'true', out: () => {}, err: () => {} })
    await rm(dir, { recursive: true, force: true })
    expect(run.exitCode).toBe(1)
    expect(run.report!.tasks[0].reasons[0]).toMatch(/^could not run: control plane answered 400/)
  })
})

describe('rehearse exit codes', () => {
  const collect = () => { const lines: string[] = []; return { lines, sink: (l: string) => lines.push(l) } }
  it.each([
    ['no agent', ['rehearsals/tasks'], {}, /--agent/],
    ['a missing task path', ['rehearsals/nope'], { agent: 'true' }, /no such file or folder/],
    ['an unknown reporter', ['rehearsals/tasks'], { agent: 'true', reporter: ['xml'] }, /unknown reporter `xml`/],
    ['a grep that matches nothing', ['rehearsals/tasks'], { agent: 'true', grep: 'zzz' }, /no task matches/],
  ])('%s is a usage error (exit 2)', async (_what, paths, opts, message) => {
    const err = collect()
    const run = await runRehearsal(paths as string[], { ...opts, out: () => {}, err: err.sink })
    expect(run.exitCode).toBe(2)
    expect(err.lines.join('\n')).toMatch(message)
  })
})
