import { createHash, randomBytes } from 'node:crypto'

/** The console's session cookie: HttpOnly, SameSite=Strict, only sent to `/_sandbox`. */
export const CONSOLE_COOKIE = 'sandbox_console'
// Unused sign-in links and live sessions kept at once; the oldest goes first beyond these.
const MAX_LINKS = 32
const MAX_SESSIONS = 64

/**
 * One-time console sign-in links and the browser sessions they open (issue 33). A link's ticket
 * works once: redeeming it starts a session whose id only the browser's HttpOnly cookie holds.
 * Only SHA-256 digests of tickets and session ids are kept, never the values; both are 32 random bytes.
 */
export class ConsoleSessions {
  readonly #tickets = new Set<string>()
  readonly #sessions = new Set<string>()

  /** A fresh ticket for a sign-in link (`/_sandbox/console/sign-in?ticket=…`). */
  issueTicket(): string {
    const ticket = secret()
    remember(this.#tickets, digest(ticket), MAX_LINKS)
    return ticket
  }

  /** Spends a ticket: the new session id, or null for a ticket that is unknown or already used. */
  redeem(ticket: string): string | null {
    const key = digest(ticket)
    if (!this.#tickets.delete(key)) return null
    const session = secret()
    remember(this.#sessions, digest(session), MAX_SESSIONS)
    return session
  }

  /** Whether a session id (from the cookie) is live. */
  has(session: string): boolean {
    return session !== '' && this.#sessions.has(digest(session))
  }
}

/** The value of the console cookie in a `Cookie` header, or '' when there is none. */
export function consoleCookie(header: string | undefined): string {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === CONSOLE_COOKIE) return value.join('=')
  }
  return ''
}

function remember(set: Set<string>, key: string, max: number): void {
  set.add(key)
  if (set.size > max) set.delete(set.values().next().value as string)
}

function secret(): string {
  return randomBytes(32).toString('base64url')
}

function digest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url')
}
