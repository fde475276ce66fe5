import { existsSync, readFileSync, statSync } from 'node:fs'
import { logGen } from './checkpoint.js'

/**
 * Thrown at start-up when a state file's history is gone: its `.log` is missing or empty although
 * the document says group commits were logged, or the log is shorter than its own checkpoint says
 * it was. Resuming would silently drop every audit entry, ledger line and acknowledged change the
 * log held (issue 36); `serve --reset` (`--force-reset`) starts afresh on purpose. Not a
 * `SandboxError`: like `StateLockedError` it never becomes an HTTP answer.
 */
export class StateHistoryMissingError extends Error {
  readonly code = 'STATE_HISTORY_MISSING'

  constructor(
    readonly file: string,
    readonly what: string,
  ) {
    super(`State file ${file} has lost its history: ${what}. Restore it, or pass --reset to start the world afresh (dropping what ${file} holds).`)
    this.name = 'StateHistoryMissingError'
  }
}

/**
 * Checks that the state log still holds the history the document and the checkpoint name.
 * `docSeq` is the document's `seq`: above 0, doc lines were appended to a log, so one must exist.
 */
export function checkHistory(file: string, docSeq: number): void {
  const log = `${file}.log`
  const size = existsSync(log) ? statSync(log).size : null
  const head = checkpointHead(`${log}.ckpt`)
  if (size === null || size === 0) {
    const missing = size === null ? `${log} is missing` : `${log} is empty`
    if (head) throw new StateHistoryMissingError(file, `${missing}, but its checkpoint covers ${head.size} bytes of it`)
    if (docSeq > 0) throw new StateHistoryMissingError(file, `${missing}, but the document was saved after ${docSeq} logged group commits`)
    return
  }
  // A checkpoint of another generation is a compaction's leftover (ignored at open); of this one, it must fit.
  if (head && head.size > size && logGen(log) === head.gen) {
    throw new StateHistoryMissingError(file, `${log} holds ${size} bytes, but its checkpoint covers ${head.size}`)
  }
}

/** The generation and size a checkpoint file names, or null when there is none or it cannot be read. */
function checkpointHead(path: string): { gen: string; size: number } | null {
  try {
    const data = readFileSync(path)
    const head = JSON.parse(data.toString('utf8', 4, 4 + data.readUInt32LE(0))) as { gen?: unknown; size?: unknown }
    return typeof head.gen === 'string' && typeof head.size === 'number' ? { gen: head.gen, size: head.size } : null
  } catch {
    return null
  }
}
