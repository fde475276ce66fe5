import { describe, expect, it } from 'vitest'
import { dropEmptyEnv, readEnv } from './config.js'

describe('environment', () => {
  it('maps SANDBOX_* variables to serve settings and treats empty ones as unset', () => {
    expect(readEnv({ SANDBOX_PORT: '5000', SANDBOX_API_PORT: '', SANDBOX_WORLD: 'bench', OTHER: 'x' })).toEqual({ port: '5000', world: 'bench' })
  })

  it('drops empty SANDBOX_* variables before flags are parsed, so `SANDBOX_PORT=` keeps the default port', () => {
    const env: NodeJS.ProcessEnv = { SANDBOX_PORT: '', SANDBOX_STATE: 'memory', SANDBOX_SEED: '', SERVICE_API_KEY: '', PATH: '/bin' }
    dropEmptyEnv(env)
    expect(env).toEqual({ SANDBOX_STATE: 'memory', SERVICE_API_KEY: '', PATH: '/bin' })
  })
})
