/**
 * Secret values of a run (`secret: [name]` captures and `--key` values): redacted in every
 * report, and for captured secrets a failure when they appear again (KEY-02).
 */
export class Secrets {
  readonly #values = new Map<string, string>()

  add(name: string, value: unknown): void {
    if (typeof value === 'string' && value.length >= 6) this.#values.set(value, name)
  }

  get size(): number {
    return this.#values.size
  }

  /** The name of a secret whose value occurs in `text`, or null. */
  leakIn(text: string): string | null {
    for (const [value, name] of this.#values) if (text.includes(value)) return name
    return null
  }

  redact(text: string): string {
    let out = text
    for (const [value, name] of this.#values) out = out.split(value).join(`«secret:${name}»`)
    return out
  }

  /** A deep copy of `value` with every secret replaced. */
  redactDeep<T>(value: T): T {
    if (this.#values.size === 0 || value === undefined) return value
    return JSON.parse(this.redact(JSON.stringify(value))) as T
  }
}
