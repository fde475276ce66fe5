import { pathToFileURL } from 'node:url'
import path from 'node:path'

export interface Urls {
  baseUrl: string
  apiUrl: string
}

/** Replaces the documented default hosts (`localhost`/`127.0.0.1` on 4010 and 4011) with the real ones. */
export function substituteUrls(code: string, urls: Urls): string {
  const hostOf = (url: string) => new URL(url).host
  return code.replace(/(https?:\/\/)?(?:localhost|127\.0\.0\.1):(4010|4011)(?!\d)/g, (_m, scheme: string | undefined, port: string) => {
    const url = port === '4010' ? urls.baseUrl : urls.apiUrl
    return scheme ? url.replace(/\/$/, '') : hostOf(url)
  })
}

/** `npx adops-sandbox` runs the shim on PATH (this repository's CLI). */
export function rewriteCli(code: string): string {
  return code.replace(/\bnpx\s+(--yes\s+|-y\s+)?adops-sandbox\b/g, 'adops-sandbox')
}

/** `'adops-sandbox'` and `'adops-sandbox/conformance'` imports resolve to this repository's source. */
export function rewriteImports(code: string, repoRoot: string): string {
  const target = (sub: string | undefined) =>
    pathToFileURL(path.join(repoRoot, sub === '/conformance' ? 'conformance/index.ts' : 'src/index.ts')).href
  return code.replace(/(['"])adops-sandbox(\/conformance)?\1/g, (_m, q: string, sub: string | undefined) => `${q}${target(sub)}${q}`)
}
