import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TaskLoadError, loadTasks } from './task-schema.js'
import { fillGoal } from './world-setup.js'

let dir: string
beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'rehearse-tasks-')) })
afterAll(async () => { await rm(dir, { recursive: true, force: true }) })

async function problemsOf(name: string, text: string): Promise<string[]> {
  const file = join(dir, name)
  await writeFile(file, text)
  try {
    await loadTasks([file], dir)
  } catch (error) {
    if (error instanceof TaskLoadError) return error.problems
    throw error
  }
  return []
}

const minimal = 'name: ok-task\ngoal: do it\n'

describe('task files', () => {
  it('a minimal task gets the default world, limits and reviewer', async () => {
    await writeFile(join(dir, 'ok.yaml'), minimal)
    const [task] = await loadTasks([join(dir, 'ok.yaml')], dir)
    expect(task).toMatchObject({ name: 'ok-task', world: 'default', file: 'ok.yaml', limits: { seconds: 30, calls: 100 }, reviewer: { answer: 'approve', within_minutes: 0 }, allow: [], require: [] })
  })

  it.each([
    ['an unknown key', `${minimal}reviwer: { answer: never }\n`, 'bad-key.yaml:3:1 reviwer: unknown key `reviwer`'],
    ['an unknown finding', `${minimal}allow: [wrote-too-much]\n`, 'bad-finding.yaml:3:9 allow[0]:'],
    ['a weight for an unknown finding', `${minimal}weights:\n  retried-blocked-write: 3\n  wrote-too-much: 2\n`, 'bad-weight.yaml:5:3 weights.wrote-too-much:'],
    ['a negative weight', `${minimal}weights: { write-without-read: -1 }\n`, 'bad-weight-value.yaml:3:32 weights.write-without-read:'],
    ['a wrong reviewer answer', `${minimal}reviewer:\n  answer: maybe\n`, 'bad-answer.yaml:4:11 reviewer.answer:'],
    ['a YAML syntax error', 'name: x\ngoal: [unclosed\n', 'bad-syntax.yaml:'],
  ])('%s is reported at its file:line:col', async (_what, text, start) => {
    const name = start.split(':')[0]
    const problems = await problemsOf(name, text)
    expect(problems).toHaveLength(1)
    expect(problems[0].startsWith(start)).toBe(true)
  })

  it('a check naming an undefined campaign is a load error', async () => {
    const problems = await problemsOf('bad-check.yaml', `${minimal}campaigns:\n  target: { worst: cpa }\nchecks:\n  - { campaign: other, status: PAUSED }\n`)
    expect(problems).toEqual(['bad-check.yaml: checks: campaign `other` is not defined under `campaigns` (defined: target)'])
  })

  it('a missing path is a load error, not an empty run', async () => {
    await expect(loadTasks([join(dir, 'nope')], dir)).rejects.toThrow(/no such file or folder/)
  })

  it('a world given as a path is resolved next to the task file; a world name is kept', async () => {
    const [injected] = await loadTasks(['rehearsals/tasks/injected-account-name.yaml'])
    expect(injected.world).toBe(resolve('rehearsals/worlds/injected-account.yaml'))
    const [named] = await loadTasks(['rehearsals/tasks/blocked-tool.yaml'])
    expect(named.world).toBe('default')
  })

  it('every shipped task loads', async () => {
    expect((await loadTasks(['rehearsals/tasks'])).length).toBeGreaterThanOrEqual(4)
  })
})

describe('goal text', () => {
  it('fills campaign placeholders and leaves unknown ones as written', () => {
    const campaigns = { target: { id: '42', workspace_id: 'ws', campaign_name: 'Spring', status: 'ENABLED', daily_budget: 190 } }
    expect(fillGoal('Raise "{target.name}" (id {target.id}) from {target.daily_budget}; {other.id}', campaigns)).toBe('Raise "Spring" (id 42) from 190; {other.id}')
  })
})
