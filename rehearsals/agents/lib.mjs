// Shared plumbing of the reference agents: the goal from stdin, REST calls with the key from the
// environment, and a final report line. Plain Node 20, no dependencies.
export const env = {
  key: process.env.SERVICE_API_KEY,
  base: process.env.SERVICE_BASE_URL,
  api: process.env.SERVICE_API_URL,
}

export async function readGoal() {
  let text = ''
  for await (const chunk of process.stdin) text += chunk
  return text.trim() || process.env.REHEARSAL_GOAL || ''
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** One REST call; answers `{status, body, headers}` whatever the status. */
export async function call(method, url, body) {
  const headers = { authorization: `Bearer ${env.key}` }
  if (body !== undefined) headers['content-type'] = 'application/json'
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null }
}

/** The campaign a "resume" goal names (`(id X)`), or null. */
export function parseResume(goal) {
  const m = /resume[\s\S]*\(id (\w+)\)/i.exec(goal)
  return m ? m[1] : null
}

/** The raise a goal asks for: campaign id and new daily budget, or null. */
export function parseRaise(goal) {
  const m = /\(id (\w+)\) to (\d+(?:\.\d+)?)/.exec(goal)
  return m ? { id: m[1], budget: Number(m[2]) } : null
}

export function report(outcome) {
  process.stdout.write(`${JSON.stringify(outcome)}\n`)
}

/**
 * A connection needs the owner's consent: ask for a link by e-mail to them, then follow the request
 * (REST for both: hosted MCP has no tool for it). `send` is the agent's own HTTP call.
 */
export async function connectByLink(send) {
  const asked = await send('POST', `${env.base}/api/v1/connections/request`, { platform: 'google' })
  if (asked.status !== 201) return { done: false, refused: asked.status, reason: asked.body?.error ?? null }
  const id = asked.body.request_id
  for (let i = 0; i < 100; i++) {
    const res = await send('GET', `${env.base}/api/v1/connections/requests/${id}`)
    if (res.body?.status === 'completed') return { done: true, request: id, connection: res.body.connection_id }
    if (res.body?.status === 'expired') return { done: false, request: id, reason: 'the link expired before the owner used it' }
    await sleep(200)
  }
  return { done: false, request: id, reason: 'the owner has not connected an account yet' }
}
