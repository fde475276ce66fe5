/** Anything shaped like a service key: `svc_` (+ `test_`) + 32 characters (KEY-01). */
const KEY_VALUE = /svc_(?:test_)?[A-Za-z0-9_-]{32}/g

/** A key value shown as its 12-character prefix, the way key records show it (KEY-02). */
export function maskKey(value: string): string {
  return `${value.slice(0, 12)}…[redacted]`
}

/** OAuth secrets of the hosted-MCP authorization server: `mcp_at_`/`mcp_rt_`/`mcp_ac_` + 40 characters. */
const OAUTH_VALUE = /mcp_(?:at|rt|ac)_[A-Za-z0-9]{40}/g

/** Replaces every key value (and OAuth token) in `text` by its masked prefix; cheap enough for every exchange. */
export function redactText(text: string): string {
  const keysMasked = text.includes('svc_') ? text.replace(KEY_VALUE, maskKey) : text
  return keysMasked.includes('mcp_') ? keysMasked.replace(OAUTH_VALUE, maskKey) : keysMasked
}

/** Masks a credential header value (a key, or an opaque token) whatever its shape. */
export function redactCredential(value: string): string {
  const bearer = /^(Bearer\s+)(.*)$/i.exec(value)
  const token = bearer ? bearer[2] : value
  return `${bearer ? bearer[1] : ''}${token.length > 12 ? maskKey(token) : '[redacted]'}`
}
