import type { AuditEntry, Campaign } from '../domain/model.js'
import { money, signedMoney } from './money-format.js'

/** The campaign a held write touches, as it is now. */
export interface EffectCampaign {
  id: string
  name: string
  status: Campaign['status']
  daily_budget: number
  currency: string
}

/**
 * What approving a held write will do, in words, for the review card (GATE-01, GATE-03):
 * `summary` says it; `confirm` is the question the console asks before approving a write that can
 * raise spend (enable, budget increase, create, creative, audience; null otherwise); `spend_delta`
 * is the change of daily spend when it is known.
 */
export interface WriteEffect {
  campaign: EffectCampaign | null
  summary: string
  raises_spend: boolean
  spend_delta: number | null
  currency: string | null
  confirm: string | null
}

/** The value of `--name` in a dispatcher argument list (space or `=` form), or null. */
export function flag(args: readonly string[], name: string): string | null {
  const i = args.indexOf(name)
  if (i >= 0 && i + 1 < args.length) return args[i + 1]
  const inline = args.find((a) => a.startsWith(`${name}=`))
  return inline ? inline.slice(name.length + 1) : null
}

/** `1234.5, 'USD'` → `$1,234.50`: the console's one money format (public/js/money.js), so card, dialog and audit agree. */
export function amount(value: number, currency: string | null): string {
  return money(value, currency ?? 'USD')
}

const signed = (value: number, currency: string | null) => `${signedMoney(value, currency ?? 'USD')}/day`

/** The value of a numeric flag, or null when it is missing or not a number (never `Number(null)` = 0). */
function numberFlag(args: readonly string[], name: string): number | null {
  const raw = flag(args, name)
  const n = raw === null || raw.trim() === '' ? NaN : Number(raw)
  return Number.isFinite(n) ? n : null
}

interface Context {
  entry: Pick<AuditEntry, 'operation' | 'args' | 'script'>
  c: EffectCampaign | null
  currency: string | null
  /** `“Spring” (paused, 210.00 EUR/day)` or `the account`. */
  named: string
  result: (summary: string, delta: number | null, confirm: string | null) => WriteEffect
}

function enable({ c, currency, named, result }: Context): WriteEffect {
  const delta = c && c.status !== 'ENABLED' ? c.daily_budget : 0
  const up = `spending up to ${amount(c?.daily_budget ?? 0, currency)} a day (${signed(delta, currency)})`
  return result(`Enables ${named}: it starts ${up}.`, delta, `Enable ${c ? `“${c.name}”` : 'this campaign'} and start ${up}?`)
}

function budget({ entry, c, currency, named, result }: Context): WriteEffect {
  const proposed = numberFlag(entry.args, '--daily-budget')
  if (!c || proposed === null) return result(`Changes a daily budget of ${named}.`, null, 'Change a daily budget (amount unknown)?')
  const delta = Math.round((proposed - c.daily_budget) * 100) / 100
  // Spend only moves while the campaign runs; a paused campaign's budget applies once it is enabled.
  const live = c.status === 'ENABLED' ? '' : ' once it is enabled'
  const summary = `Sets the daily budget of ${named} from ${amount(c.daily_budget, currency)} to ${amount(proposed, currency)} (${signed(delta, currency)}${live}).`
  return result(summary, delta, delta > 0 ? `Raise the daily budget of “${c.name}” ${amount(c.daily_budget, currency)} → ${amount(proposed, currency)} (${signed(delta, currency)})?` : null)
}

function create({ entry, currency, result }: Context): WriteEffect {
  const daily = numberFlag(entry.args, '--daily-budget')
  const name = flag(entry.args, '--campaign-name')
  const what = name ? `campaign “${name}”` : `what ${entry.script} makes`
  if (daily === null) return result(`Creates ${what}; it can be used by campaigns that spend money.`, null, `Create ${what}, which campaigns can spend money on?`)
  return result(`Creates ${what} with a daily budget of ${amount(daily, currency)} (created paused; it spends once enabled).`, daily,
    `Create ${what} with a daily budget of ${amount(daily, currency)} (up to ${signed(daily, currency)} once enabled)?`)
}

const DESCRIBE: Partial<Record<AuditEntry['operation'], (ctx: Context) => WriteEffect>> = {
  enable, budget, create,
  creative: ({ c, currency, named, result }) => result(`Changes the ads, keywords or assets of ${named}; this changes what its budget buys and can raise its spend.`, null,
    `Change the creative of ${c ? `“${c.name}”, which can spend up to ${amount(c.daily_budget, currency)} a day` : 'the account, which can change what campaigns spend'}?`),
  audience: ({ named, result }) => result(`Creates or changes an audience in ${named}; campaigns that target it can spend more.`, null,
    'Create or change an audience that campaigns can spend money on?'),
  pause: ({ c, currency, named, result }) => result(`Pauses ${named}: it stops spending${c ? ` (${signed(-c.daily_budget, currency)})` : ''}.`, c ? -c.daily_budget : null, null),
  remove: ({ c, currency, named, result }) => {
    const running = c && c.status === 'ENABLED' ? c.daily_budget : null
    return result(`Removes ${named} for good: it stops spending${running === null ? '' : ` (${signed(-running, currency)})`} and cannot be enabled again.`, running === null ? null : -running, null)
  },
}

/** Describes what approving `entry` does, given the campaign it names (if any) and the account currency (GATE-01, GATE-03). */
export function describeEffect(entry: Pick<AuditEntry, 'operation' | 'args' | 'script'>, campaign: Campaign | null, accountCurrency: string | null): WriteEffect {
  const c: EffectCampaign | null = campaign
    ? { id: campaign.id, name: campaign.campaign_name, status: campaign.status, daily_budget: campaign.daily_budget, currency: campaign.currency }
    : null
  const currency = c?.currency ?? accountCurrency
  const named = c ? `“${c.name}” (${c.status.toLowerCase()}, ${amount(c.daily_budget, c.currency)}/day)` : 'the account'
  const result = (summary: string, delta: number | null, confirm: string | null): WriteEffect =>
    ({ campaign: c, summary, raises_spend: confirm !== null, spend_delta: delta, currency, confirm })
  const describe = DESCRIBE[entry.operation]
  return describe ? describe({ entry, c, currency, named, result }) : result(`Runs ${entry.script}.`, null, null)
}
