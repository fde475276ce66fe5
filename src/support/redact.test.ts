import { describe, expect, it } from 'vitest'
import { redactCredential, redactText } from './redact.js'

const KEY = 'svc_test_ownerAcme00000000000000000000000'

describe('redaction', () => {
  it('masks every key value in text as its 12-character prefix', () => {
    expect(redactText(`{"key":"${KEY}","again":"${KEY}"}`)).toBe('{"key":"svc_test_own…[redacted]","again":"svc_test_own…[redacted]"}')
    expect(redactText('svc_abcdefghijklmnopqrstuvwxyz012345')).toBe('svc_abcdefgh…[redacted]')
    expect(redactText('nothing secret here')).toBe('nothing secret here')
  })

  it.each([
    [`Bearer ${KEY}`, 'Bearer svc_test_own…[redacted]'],
    [KEY, 'svc_test_own…[redacted]'],
    ['short', '[redacted]'],
    ['Bearer short', 'Bearer [redacted]'],
  ])('masks the credential header %j whatever its shape', (value, shown) => {
    expect(redactCredential(value)).toBe(shown)
  })
})
