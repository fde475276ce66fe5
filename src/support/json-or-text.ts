/** A body as the journal and scenario transcripts show it: parsed JSON, the text itself when it is not JSON, null when empty. */
export function jsonOrText(text: string): unknown {
  if (!text) return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}
