import { appendFile, readFile } from 'node:fs/promises'

interface LogLine {
  t: string
  r?: { id: string; at?: string } & Record<string, unknown>
}

/**
 * Appends audit records to a stopped sandbox's state log (`<state>.log`) until it holds `count`,
 * cloning the newest real audit row the sandbox wrote (so the shape is always current). Seeded
 * rows get fresh ids and earlier timestamps, and are `executed`, like a long history of changes.
 */
export async function seedAudit(stateFile: string, count: number): Promise<{ seeded: number; logBytes: number }> {
  const logPath = `${stateFile}.log`
  const text = await readFile(logPath, 'utf8')
  const audit = new Map<string, NonNullable<LogLine['r']>>()
  for (const line of text.split('\n')) {
    if (!line) continue
    const entry = JSON.parse(line) as LogLine
    if (entry.t === 'audit' && entry.r) audit.set(entry.r.id, entry.r)
  }
  const template = [...audit.values()].find((r) => r.status === 'executed') ?? [...audit.values()].at(-1)
  if (!template) throw new Error(`${logPath} holds no audit row to clone: did the template write run?`)
  const missing = Math.max(0, count - audit.size)
  const base = Date.parse(String(template.at ?? new Date().toISOString()))
  const chunks: string[] = []
  for (let i = 0; i < missing; i++) {
    const row = { ...template, id: `aud_seed${String(i).padStart(7, '0')}`, at: new Date(base - (missing - i) * 60_000).toISOString(), status: 'executed' }
    chunks.push(JSON.stringify({ t: 'audit', r: row }))
    if (chunks.length === 10_000 || i === missing - 1) {
      await appendFile(logPath, chunks.join('\n') + '\n')
      chunks.length = 0
    }
  }
  return { seeded: missing, logBytes: Buffer.byteLength(text) + missing * (JSON.stringify({ t: 'audit', r: template }).length + 1) }
}
