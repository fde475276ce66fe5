import { describe, expect, it } from 'vitest'
import { SandboxError } from './errors.js'

describe('SandboxError', () => {
  it('renders a refusal with its catalog status and message, without capturing a stack', () => {
    const error = new SandboxError('NOT_FOUND', { what: 'Campaign 42' })
    expect(error).toBeInstanceOf(Error)
    expect(error.status).toBe(404)
    expect(error.toBody()).toMatchObject({ code: 'NOT_FOUND' })
    expect(error.stack).not.toMatch(/\n\s+at /)
  })

  it('keeps the stack of an internal error (5xx), which is logged', () => {
    expect(new SandboxError('INTERNAL_ERROR', { reason: 'boom' }).stack).toMatch(/\n\s+at /)
  })

  it('leaves the process-wide stack limit as it found it for every other error', () => {
    const before = Error.stackTraceLimit
    new SandboxError('CONFLICT', { reason: 'x' })
    expect(Error.stackTraceLimit).toBe(before)
    expect(new Error('plain').stack).toMatch(/\n\s+at /)
  })
})
