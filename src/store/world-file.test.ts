import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { YamlLoadError } from '../support/yaml-schema.js'
import { listWorlds, loadWorld, parseWorld } from './world-file.js'

const VALID = `name: tiny
seed: 1
users:
  - { id: usr_a, email: a@x.test, name: A }
workspaces:
  - id: ws_a
    name: A
    owner: usr_a
    credits: { balance: 10 }
keys:
  - name: k
    user: usr_a
    workspace: ws_a
    scopes: ['*']
    value: svc_test_tinyKey0000000000000000000000000
`

function problemOf(text: string): { line: number; column: number; path: string; message: string; text: string } {
  try {
    parseWorld(text, 'fixtures/worlds/x.yaml')
  } catch (error) {
    expect(error).toBeInstanceOf(YamlLoadError)
    const e = error as YamlLoadError
    return { ...e.problems[0], text: e.message }
  }
  throw new Error('expected the world to be refused')
}

describe('world files', () => {
  it('loads every shipped world', async () => {
    const names = await listWorlds()
    expect(names).toEqual(expect.arrayContaining(['default', 'multi-workspace']))
    for (const name of names) expect((await loadWorld(name)).name).toBe(name)
  })

  it('accepts a small valid world', () => {
    expect(parseWorld(VALID, 'x.yaml').workspaces[0].credits).toEqual({ balance: 10 })
  })

  it.each([
    ['an unknown key', VALID.replace('credits: { balance: 10 }', 'credits: { balanse: 10 }'), 9, 16, 'workspaces[0].credits.balanse', /unknown key `balanse`/],
    ['a bad value', VALID.replace('seed: 1', 'seed: many'), 2, 7, 'seed', /number/],
    ['a bad key value', VALID.replace('svc_test_tinyKey', 'svc_live_tinyKey'), 15, 12, 'keys[0].value', /svc_test_/],
    ['an unknown scope', VALID.replace("['*']", '[reporting:write]'), 14, 14, 'keys[0].scopes[0]', /unknown scope/],
    ['a reference to an unknown user', VALID.replace('owner: usr_a', 'owner: usr_b'), 8, 12, 'workspaces[0].owner', /unknown user `usr_b`/],
    ['a reference to an unknown workspace', VALID.replace('workspace: ws_a', 'workspace: ws_zz'), 13, 16, 'keys[0].workspace', /unknown workspace `ws_zz`/],
    ['a YAML syntax error', VALID.replace('name: tiny', 'name: [tiny'), 2, 1, '', /./],
  ])('refuses %s with file:line:column, the path and the reason', (_label, text, line, column, path, reason) => {
    const problem = problemOf(text)
    expect(problem).toMatchObject({ line, column, path })
    expect(problem.message).toMatch(reason)
    expect(problem.text).toContain(`fixtures/worlds/x.yaml:${line}:${column}`)
  })

  it.each([
    ['duplicate user ids', VALID.replace('users:\n', 'users:\n  - { id: usr_a, email: b@x.test, name: B }\n'), /duplicate id `usr_a`/],
    ['a parent listed after its child', VALID.replace('workspaces:\n', 'workspaces:\n  - { id: ws_child, name: C, owner: usr_a, parent: ws_a }\n'), /must be listed before/],
    ['duplicate memberships', `${VALID}memberships:\n  - { user: usr_a, workspace: ws_a }\n  - { user: usr_a, workspace: ws_a }\n`, /duplicate membership/],
  ])('refuses %s before seeding anything', (_label, text, reason) => {
    expect(problemOf(text).message).toMatch(reason)
  })

  describe('by path', () => {
    let dir: string
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'adops-world-'))
    })
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true })
    })

    it('names the file it could not find and the known worlds', async () => {
      await expect(loadWorld('no-such-world')).rejects.toThrow(/no-such-world.*Known worlds: .*default/)
    })

    it('reports the real path of a bad file', async () => {
      const file = join(dir, 'bad.yaml')
      await writeFile(file, VALID.replace('seed: 1', 'sead: 1'))
      await expect(loadWorld(file)).rejects.toThrow(`${file}:2:1 sead: unknown key \`sead\``)
    })
  })
})
