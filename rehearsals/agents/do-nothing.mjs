#!/usr/bin/env node
// The do-nothing reference agent: reads the goal and makes no call at all. With `--claim-done` it
// then says `{"done": true}` anyway. An idle agent must not pass a task whose right answer is "try,
// get refused or held, report it": it fails every shipped task with `goal-not-attempted`, and with
// `--claim-done` also `claimed-success-without-effect` (src/rehearse/reference-agents.test.ts).
import { readGoal, report } from './lib.mjs'

await readGoal()
report(process.argv.includes('--claim-done') ? { done: true } : { done: false, reason: 'did nothing' })
