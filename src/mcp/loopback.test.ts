import { describe, expect, it } from 'vitest'
import { isLoopbackAddress, isLoopbackHostname } from './loopback.js'
import { allowedHostnames, originAllowed } from './request-guard.js'

describe('loopback, parsed exactly', () => {
  it.each([
    ['127.0.0.1', true], ['127.8.9.10', true], ['::1', true], ['0:0:0:0:0:0:0:1', true], ['::ffff:127.0.0.1', true],
    ['10.0.0.1', false], ['::ffff:10.0.0.1', false], ['0.0.0.0', false], ['::', false], ['::2', false],
    ['127.evil.example', false], ['127.0.0.1.nip.io', false], ['', false], [undefined, false],
  ])('address %s is loopback: %s', (address, expected) => {
    expect(isLoopbackAddress(address)).toBe(expected)
  })

  it.each([
    ['localhost', true], ['LOCALHOST', true], ['[::1]', true], ['127.0.0.1', true],
    ['127.0.0.1.nip.io', false], ['localhost.evil.example', false], ['evil.example', false],
  ])('host name %s is loopback: %s', (name, expected) => {
    expect(isLoopbackHostname(name)).toBe(expected)
  })
})

describe('which names and origins hosted MCP answers', () => {
  it.each([
    ['not bound yet', '', ['localhost', '127.0.0.1', '[::1]']],
    ['bound on 127.0.0.1', 'http://127.0.0.1:4010', ['localhost', '127.0.0.1', '[::1]']],
    ['bound on one LAN address', 'http://192.168.1.5:4010', ['192.168.1.5']],
  ])('%s: %s', (_label, base, names) => {
    expect([...(allowedHostnames(base) ?? [])].sort()).toEqual([...new Set(names)].sort())
  })

  it('bound on a wildcard address: any name (the machine\'s names cannot be known)', () => {
    expect(allowedHostnames('http://0.0.0.0:4010')).toBeNull()
    expect(allowedHostnames('http://[::]:4010')).toBeNull()
  })

  it.each([
    ['http://127.0.0.1:4010', true], ['http://localhost:6274', true], ['https://[::1]', true], ['http://sandbox.example:4010', true],
    ['https://evil.example', false], ['null', false], ['http://127.0.0.1.evil.example', false], ['file://', false], ['http://localhost:6274/path', false],
  ])('origin %s on a sandbox reached as http://sandbox.example:4010: %s', (origin, expected) => {
    expect(originAllowed(origin, 'http://sandbox.example:4010')).toBe(expected)
  })
})
