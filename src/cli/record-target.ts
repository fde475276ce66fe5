import { EXIT } from '../../conformance/exit-codes.js'
import type { RecordFlags } from './record.js'

/** A usage error (exit 2) or an unreachable target (exit 3), said on stderr. */
export class RecordExit extends Error {
  constructor(readonly code: number, message: string) {
    super(message)
  }
}

/** Both target URLs, checked: a usage error names what is missing. */
export function targetsOf(flags: RecordFlags, what: string): { targetBase: string; targetApi: string } {
  if (!flags.targetBase || !flags.targetApi) throw new RecordExit(EXIT.usage, `${what} --target-base URL and --target-api URL (the deployment's {base_url} and {api_url})`)
  for (const [flag, url] of [['--target-base', flags.targetBase], ['--target-api', flags.targetApi]]) {
    if (!/^https?:\/\/[^/]/.test(url) || !URL.canParse(url)) throw new RecordExit(EXIT.usage, `${flag} takes an http(s) URL; got ${url}`)
  }
  return { targetBase: flags.targetBase.replace(/\/$/, ''), targetApi: flags.targetApi.replace(/\/$/, '') }
}

/** Each URL answers at all (any status): a target that does not is exit 3 before anything listens. */
export async function probe(urls: string[]): Promise<void> {
  for (const url of urls) {
    await fetch(url, { signal: AbortSignal.timeout(10_000), redirect: 'manual' }).then((r) => r.body?.cancel()).catch((error: Error) => {
      throw new RecordExit(EXIT.unreachable, `target unreachable: ${url}: ${causeOf(error)}`)
    })
  }
}

/** The reason a fetch failed (undici hides it in `cause`). */
export function causeOf(error: Error): string {
  return error.cause instanceof Error ? error.cause.message : error.message
}
