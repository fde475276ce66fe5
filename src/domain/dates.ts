import { z } from 'zod'

/** What every surface says about a value that is not a calendar date. */
export const DATE_MESSAGE = 'must be a date YYYY-MM-DD'

/**
 * A calendar date `YYYY-MM-DD` that exists (month lengths and leap years checked, so `2026-02-30`,
 * `2025-02-29` and `2026-04-31` are refused): the one date parser of the REST query, the
 * dispatcher's date flags and hosted MCP (DISP-08, REST-01). zod's ISO date format does the check.
 */
export const calendarDate = z.iso.date(DATE_MESSAGE)

/** Whether `text` is exactly a calendar date that exists (see `calendarDate`). */
export function isCalendarDate(text: string): boolean {
  return calendarDate.safeParse(text).success
}
