/**
 * Whether to colour a stream: `NO_COLOR` (any non-empty value) turns colour off, `FORCE_COLOR`
 * (anything but `0` or `false`) turns it on, else colour follows whether the stream is a terminal
 * (and `TERM` is not `dumb`). See https://no-color.org.
 */
export function colorEnabled(out: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true
  return Boolean(out.isTTY) && env.TERM !== 'dumb'
}
