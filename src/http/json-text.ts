/**
 * `JSON.stringify(value)`, except that the text of a frozen object or array is kept and reused:
 * campaign rows are frozen and shared while their metrics stand still (`campaignRow`), so a list
 * of them is serialised once and then only joined (bench/README.md). Anything that is not a plain
 * object or array (primitives, `toJSON`, class instances) goes to `JSON.stringify` itself.
 */
export function jsonText(value: unknown): string {
  if (value === null || typeof value !== 'object' || hasToJSON(value)) return JSON.stringify(value)
  const frozen = Object.isFrozen(value)
  const kept = frozen ? texts.get(value) : undefined
  if (kept !== undefined) return kept
  // Joined by hand only around kept texts: with nothing frozen inside, V8's own serialiser is faster.
  const text = !holdsFrozen(value) ? JSON.stringify(value) : Array.isArray(value) ? arrayText(value) : objectText(value as Record<string, unknown>)
  if (frozen) texts.set(value, text)
  return text
}

/**
 * Whether a frozen object or array lies within `depth` levels of `value`, through the plain objects
 * and arrays `jsonText` walks. Kept texts are the body itself (an unchanged `GET /v1/campaigns`
 * page) or sit two levels down (a list body's rows, `body.campaigns[i]`); a deeper one missed is only
 * serialised again. Walking every key of every answer to find none was ≈ 1.5 % of the agent
 * session's CPU (bench/README.md).
 */
function holdsFrozen(value: object, depth = FROZEN_DEPTH): boolean {
  if (Array.isArray(value)) {
    // A loop, not `some`: on a frozen array (a kept list) `some` takes V8's slow path.
    for (let i = 0; i < value.length; i++) if (walkable(value[i], depth)) return true
    return false
  }
  if (!isPlain(value)) return false
  for (const key in value) if (Object.hasOwn(value, key) && walkable((value as Record<string, unknown>)[key], depth)) return true
  return false
}

const FROZEN_DEPTH = 2

function walkable(item: unknown, depth: number): boolean {
  return item !== null && typeof item === 'object' && !hasToJSON(item) && (Object.isFrozen(item) || (depth > 1 && holdsFrozen(item, depth - 1)))
}

const texts = new WeakMap<object, string>()

function arrayText(items: unknown[]): string {
  let out = '['
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ','
    // As JSON.stringify: what has no JSON form is null inside an array.
    out += skipped(items[i]) ? 'null' : jsonText(items[i])
  }
  return `${out}]`
}

function objectText(object: Record<string, unknown>): string {
  let out = '{'
  for (const key of Object.keys(object)) {
    const item = object[key]
    // As JSON.stringify: a property without a JSON form is left out.
    if (skipped(item)) continue
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${jsonText(item)}`
  }
  return `${out}}`
}

function skipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol'
}

function hasToJSON(value: object): boolean {
  return typeof (value as { toJSON?: unknown }).toJSON === 'function'
}

function isPlain(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}

let lastText: string | null = null
let lastBytes: Buffer | null = null

/**
 * What to write for a body's text: the text itself the first time (Node writes a string straight
 * into the socket, with no Buffer to allocate and collect), its UTF-8 bytes when the same text comes
 * again (a reused list body, whose `jsonText` is the very same string): encoded once, then written
 * as they are while the text stays the same.
 */
export function bodyToWrite(text: string): string | Buffer {
  if (text !== lastText) {
    lastText = text
    lastBytes = null
    return text
  }
  return (lastBytes ??= Buffer.from(text, 'utf8'))
}
