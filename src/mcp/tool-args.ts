import { z } from 'zod'
import type { ArgsMap } from '../client/flags.js'
import { toFlags } from '../client/flags.js'
import { DATE_PRESETS } from '../domain/date-presets.js'
import { calendarDate } from '../domain/dates.js'

/**
 * Argument shapes the real catalog's tools use (issue 35; research sheet §1.3), shared by the MCP
 * tools. Optional arguments take `null` too, as FastMCP schemas (`anyOf [X, null]`, default null) do.
 */
export const platform = z.string().default('google').describe('Ad platform; only `google` is supported by the sandbox.')
export const campaignId = z.string().min(1).describe('Campaign id, as listed by list_campaigns.')

/** `account_id` / `account_name`: which ad account, when the workspace has several. */
export const accountArgs = {
  account_id: z.string().min(1).nullish().describe('Ad account id, e.g. 123-456-7890. A workspace with several accounts needs it (or account_name): the tool otherwise asks which account.'),
  account_name: z.string().min(1).nullish().describe('Ad account name (any case), instead of account_id.'),
}

/** The reporting window: `days`, a `date_range` preset, or `start_date` / `end_date`. */
export const windowArgs = {
  days: z.number().int().min(1).max(1095).nullish().describe('Window in days ending today (default 7).'),
  date_range: z.string().nullish().describe(`Named window instead of days, lower case: ${DATE_PRESETS.join(', ')}.`),
  start_date: calendarDate.nullish().describe('YYYY-MM-DD; with end_date instead of days.'),
  end_date: calendarDate.nullish().describe('YYYY-MM-DD.'),
}

/** Paging of a listing: `page` (1-based) and `limit`, or `offset` and `limit`. */
export const pagingArgs = {
  page: z.number().int().min(1).nullish().describe('Page number, from 1 (default 1).'),
  limit: z.number().int().min(1).max(100).nullish().describe('Items per page (default 50, at most 100).'),
  offset: z.number().int().min(0).nullish().describe('Items to skip, instead of page.'),
}

const flagValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number()]))])

/** `execute`'s `args`: CLI flags in order, or a flags map (`{"campaign-id": "123"}` or `{campaign_id: "123"}`). */
export const executeArgs = z.union([z.array(z.string()), z.record(z.string(), flagValue)]).nullish()
  .describe('Flags in order (["--status", "ENABLED"]), or a map of flag to value ({"status": "ENABLED"}; true is a bare flag, a list repeats it).')

/** A flags map or list as ordered CLI flags; map keys may be written with or without dashes. */
export function flagsOf(args: string[] | Record<string, unknown> | null | undefined): string[] {
  if (!args) return []
  if (Array.isArray(args)) return args
  return toFlags(Object.fromEntries(Object.entries(args).map(([key, value]) => [key.replace(/^-+/, ''), value])) as ArgsMap)
}

/** A newline-separated audience body (the real tool's shape) or a list, as the list of identifiers. */
export function audienceLines(body: string | string[]): string[] {
  return typeof body === 'string' ? body.split(/\r?\n/).map((line) => line.trim()).filter(Boolean) : body
}

/** One page of a listing (`list_connected_accounts`): `offset` wins over `page`; `limit` 50 by default. */
export function pageItems<T>(items: readonly T[], paging: { page?: number; limit?: number; offset?: number } = {}) {
  const limit = paging.limit ?? 50
  const page = paging.page ?? 1
  const offset = paging.offset ?? (page - 1) * limit
  const slice = items.slice(offset, offset + limit)
  return { items: slice, total: items.length, page: paging.offset === undefined ? page : Math.floor(offset / limit) + 1, limit, offset, has_more: offset + slice.length < items.length }
}
