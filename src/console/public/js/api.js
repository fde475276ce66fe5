// Control-plane calls with the admin token the person entered (kept in sessionStorage only).

const TOKEN_KEY = 'adops-sandbox.admin-token'
// This file is served at /_sandbox/console/js/api.js; the control plane is /_sandbox/.
const ROOT = new URL('../../', import.meta.url).pathname

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) ?? ''
}

export function setToken(value) {
  if (value) sessionStorage.setItem(TOKEN_KEY, value)
  else sessionStorage.removeItem(TOKEN_KEY)
}

/** The address of a control-plane path such as `/clock`. */
export function url(path) {
  return `${ROOT}${path.replace(/^\//, '')}`
}

/** A refusal from the sandbox, carrying its `{error, code}` body. */
export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error ?? `HTTP ${status}`)
    this.status = status
    this.code = body?.code
    this.body = body
  }
}

/** `call('GET', '/clock')` → parsed JSON of `/_sandbox/clock`; throws ApiError on non-2xx. */
export async function call(method, path, body) {
  const headers = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (token()) headers['x-sandbox-admin'] = token()
  const res = await fetch(url(path), { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  let parsed = null
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {
    parsed = { error: text }
  }
  if (!res.ok) throw new ApiError(res.status, parsed)
  return parsed
}

export const get = (path) => call('GET', path)
export const post = (path, body = {}) => call('POST', path, body)

/** `?a=1&b=2` from an object, skipping empty values. */
export function query(params) {
  const qs = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== ''))
  return qs.size ? `?${qs}` : ''
}
