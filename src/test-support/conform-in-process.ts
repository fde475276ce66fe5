import { vi } from 'vitest'
import { conformCommand } from '../cli/conform.js'

/**
 * Runs `conform …` in-process and returns its exit code and output (stdout and stderr captured,
 * `process.exitCode` reset before and after), for the fast and the slow CLI tests alike.
 */
export async function conformInProcess(args: string[]): Promise<{ code: number; stderr: string; stdout: string }> {
  let stdout = ''
  let stderr = ''
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((stdout += String(chunk)), true))
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((stderr += String(chunk)), true))
  try {
    process.exitCode = undefined
    await conformCommand().exitOverride().parseAsync(args, { from: 'user' })
    return { code: Number(process.exitCode ?? 0), stdout, stderr }
  } finally {
    vi.restoreAllMocks()
    process.exitCode = undefined
  }
}
