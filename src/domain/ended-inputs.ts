import type { Campaign } from './model.js'
import { timesOf } from './history-times.js'

/**
 * Whether two versions of a campaign have the same inputs for the days before `today` (what
 * `endedInputs` spells): same seed, channel, creation and starting budget, and the same history
 * entries before `today`, compared as objects (entries are never edited, and a change shares the
 * old ones), so a pause or enable made today keeps every ended day without rebuilding its key.
 */
export function sameEndedInputs(a: Campaign, b: Campaign, today: number): boolean {
  if (a === b) return true
  return a.seed === b.seed && a.channel_type === b.channel_type && a.created_at === b.created_at &&
    (a.budget_history[0]?.daily_budget ?? a.daily_budget) === (b.budget_history[0]?.daily_budget ?? b.daily_budget) &&
    sameBefore(a.budget_history, b.budget_history, today) && sameBefore(a.status_history, b.status_history, today)
}

function sameBefore(a: ReadonlyArray<{ at: string }>, b: ReadonlyArray<{ at: string }>, today: number): boolean {
  if (a === b) return true
  // A change appends to (or folds today's part of) the history it replaces: past the entries both
  // share, usually only today's are left to look at (their instants are listed when the change is
  // made: `appendEntry`).
  let shared = 0
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared++
  if (noneBefore(a, shared, today) && noneBefore(b, shared, today)) return true
  const [ta, tb] = [timesOf(a), timesOf(b)]
  for (let i = 0, j = 0; ; i++, j++) {
    while (i < a.length && ta[i] >= today) i++
    while (j < b.length && tb[j] >= today) j++
    if (i === a.length || j === b.length) return i === a.length && j === b.length
    if (a[i] !== b[j]) return false
  }
}

function noneBefore(history: ReadonlyArray<{ at: string }>, from: number, today: number): boolean {
  const times = timesOf(history)
  for (let i = from; i < history.length; i++) if (times[i] < today) return false
  return true
}

/**
 * Everything a day before `today` is computed from (`computeDay`, `daysBetween`): seed, channel,
 * creation, the starting budget (`budgetOn`) and the history entries made before today. Entries
 * from today on only bound intervals that end by today, so they change no ended day.
 */
export function endedInputs(campaign: Campaign, today: number): string {
  let text = `${campaign.seed}|${campaign.channel_type}|${campaign.created_at}|${campaign.budget_history[0]?.daily_budget ?? campaign.daily_budget}|`
  const budgetTimes = timesOf(campaign.budget_history)
  campaign.budget_history.forEach((change, i) => {
    if (budgetTimes[i] < today) text += `${change.at}=${change.daily_budget},`
  })
  text += '|'
  const statusTimes = timesOf(campaign.status_history)
  campaign.status_history.forEach((entry, i) => {
    if (statusTimes[i] < today) text += `${entry.at}=${entry.status},`
  })
  return text
}
