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

/** A target URL as printed and written: credentials in it (`https://user:pass@host`) left out. */
export function shown(url: string): string {
  return url.replace(/^(https?:\/\/)[^@/]*@/, '$1')
}

/** Each URL answers at all (any status): a target that does not is exit 3 before anything listens. */
export async function probe(urls: string[]): Promise<void> {
  for (const url of urls) {
    // fetch refuses a URL with credentials in it; they go as Basic auth, as the proxy's requests send them.
    const parsed = new URL(url)
    const basic = parsed.username || parsed.password ? `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}` : null
    parsed.username = ''
    parsed.password = ''
    await fetch(parsed, { signal: AbortSignal.timeout(10_000), redirect: 'manual', headers: basic ? { authorization: basic } : {} }).then((r) => r.body?.cancel()).catch((error: Error) => {
      throw new RecordExit(EXIT.unreachable, `target unreachable: ${shown(url)}: ${causeOf(error)}`)
    })
  }
}

/** The reason a fetch failed (undici hides it in `cause`). */
export function causeOf(error: Error): string {
  return error.cause instanceof Error ? error.cause.message : error.message
}
