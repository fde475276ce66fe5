/**
 * Why `--target <url>` did not work, when the URL is a sandbox's api host ({api_url}) rather than
 * its base URL: the api host answers `/v1/me` with 401 AUTHENTICATION_REQUIRED and has no
 * `/_sandbox`. The base URL is looked up next door (serve's default ports are 4010 and 4011) and
 * named only when its `/_sandbox/info` (read with the admin token) confirms it owns this api host.
 */
export async function apiHostHint(target: string, adminToken?: string): Promise<string | null> {
  const url = target.replace(/\/$/, '')
  const admin: Record<string, string> = adminToken ? { 'x-sandbox-admin': adminToken } : {}
  const me = await getJson(`${url}/v1/me`)
  if (me?.status !== 401 || (me.body as { code?: unknown } | null)?.code !== 'AUTHENTICATION_REQUIRED') return null
  if ((await getJson(`${url}/_sandbox/info`, admin))?.status === 200) return null
  const base = await neighbourBase(url, admin)
  const use = base ? `use its base URL: --target ${base}` : 'use its base URL (the `base_url` line of the serve banner; port 4010 by default)'
  return `${url} is a sandbox's api host ({api_url}), not its base URL; ${use}`
}

async function neighbourBase(apiUrl: string, admin: Record<string, string>): Promise<string | null> {
  const parsed = new URL(apiUrl)
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80))
  for (const candidate of [port - 1, port + 1]) {
    parsed.port = String(candidate)
    const base = parsed.origin
    const info = await getJson(`${base}/_sandbox/info`, admin)
    const owned = (info?.body as { api_url?: unknown } | null)?.api_url
    if (info?.status === 200 && typeof owned === 'string' && owned.replace(/\/$/, '') === apiUrl) return base
  }
  return null
}

async function getJson(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown } | null> {
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(3000) })
    const text = await res.text()
    let body: unknown = null
    try {
      body = JSON.parse(text)
    } catch {
      // Not JSON: not a sandbox answer.
    }
    return { status: res.status, body }
  } catch {
    return null
  }
}
