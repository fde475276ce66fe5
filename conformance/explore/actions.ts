import fc from 'fast-check'
import type { Step } from '../schema.js'
import type { McpToolInfo } from './mcp-actions.js'
import { mcpActions } from './mcp-actions.js'

/**
 * The properties `conform --explore` checks, each drawn from the rule catalog. A failing step is
 * reported under the property its `name` starts with (`[refused-changes-nothing] …`), or under
 * `contract` when the answer broke the contract.
 */
export const PROPERTIES = {
  contract: 'every answer matches the contract (ERR-01, REST-01, REST-03)',
  'auth-first': 'a request without a credential is 401 before anything else (AUTH-03)',
  'refused-changes-nothing': 'a refused request changes nothing and charges nothing (ERR-05, DISP-05)',
  'held-write-waits': 'a held write is a 202 and changes nothing until a person approves it (GATE-01)',
  'acknowledged-write-read-back': 'an acknowledged write reads back (REST-02, DISP-06)',
  'pause-is-not-repeated': 'pausing a paused campaign is 409 ALREADY_PAUSED (sandbox decision)',
  'scope-enforced': 'a key without the scope gets 403 SCOPE_MISSING and nothing runs (AUTH-04)',
  'workspace-isolation': "another workspace's id answers 404, never data (KEY-12)",
  'retry-after-honoured': 'a 429 carries Retry-After in whole seconds, and waiting that long is enough (ERR-03)',
  'key-shown-once': 'a key value appears only in its creation answer (KEY-02)',
  'mcp-tool-answers': 'a listed MCP tool called with arguments its schema accepts answers without a protocol error (MCP-01, MCP-05)',
} as const

export type Property = keyof typeof PROPERTIES

/** The credentials an exploration uses, by role; a real deployment maps them with `--key role=value`. */
export interface Roles {
  /** A key with every scope in one workspace. */
  main: string
  /** A key of another workspace (for isolation). */
  other?: string
  /** A key of `main`'s workspace without `budget:write` and `workspace:write`. */
  limited?: string
  /** `main`'s workspace id, for control-plane steps. */
  workspace?: string
  /** `other`'s workspace id. */
  otherWorkspace?: string
}

/** What a target lets the exploration do. */
export interface Reach {
  roles: Roles
  /** Writes allowed (always on a sandbox; `--allow-writes` elsewhere). */
  writes: boolean
  /** A control plane with a clock (sandbox targets). */
  control: boolean
  /** The tools the target's hosted MCP lists (none without one). */
  mcpTools?: readonly McpToolInfo[]
}

/** One generated action: a short run of steps whose expectations state a property. */
export interface Action {
  kind: string
  /** Steps with `${{ N.x }}` placeholders for their own captures; numbered when the run is assembled. */
  steps: Step[]
}

/** A step name that says which property its expectation states. */
export const named = (property: Property, text: string) => `[${property}] ${text}`

/**
 * Step ids in an action are written `%%name` and referred to as `${{ %%name.x }}`; assembling a run
 * gives each action's `%%` its own prefix (`a3_`), so two actions never share a capture.
 */
export const OWN = '%%'

/**
 * A campaign of `key`'s workspace, the `index`-th of the unfiltered list (ids stay in place
 * whatever earlier actions changed), captured as `${{ %%pick.c }}`.
 */
export function pickCampaign(key: string, index: number): Step {
  return {
    id: `${OWN}pick`,
    name: named('contract', 'list campaigns'),
    request: { host: 'api', path: '/v1/campaigns', auth: key, query: { limit: 10 } },
    expect: { status: 200 },
    capture: { c: `$.campaigns[${index}].campaign_id` },
  }
}

/** The campaign `pickCampaign` captured. */
export const CAMPAIGN = `\${{ ${OWN}pick.c }}`

const dispatch = (key: string, script: string, args: string[]) => ({
  method: 'POST', path: '/api/v1/tools/run', auth: key, json: { script_name: script, args, platform: 'google' },
})

const READ_PATHS = [
  ['api', '/v1/me'], ['api', '/v1/credits'], ['api', '/v1/connections'], ['api', '/v1/campaigns'],
  ['base', '/api/v1/tools'], ['base', '/api/v1/tools/run'], ['base', '/api/v1/landing-pages'], ['base', '/api/v1/audit'],
] as const

/** Reads every role may make: checked against the contract; the basis of every exploration. */
function reads(reach: Reach): fc.Arbitrary<Action>[] {
  const key = reach.roles.main
  return [
    fc.constantFrom(...READ_PATHS).map(([host, path]) => ({
      kind: 'read', steps: [{ name: named('contract', `read ${path}`), request: { host, path, auth: key } }],
    })),
    fc.nat(3).map((index) => ({
      kind: 'read-campaign', steps: [
        pickCampaign(key, index),
        { name: named('contract', 'read one campaign'), request: { host: 'api', path: `/v1/campaigns/${CAMPAIGN}`, auth: key } },
        { name: named('contract', "read the campaign's metrics"), request: { host: 'api', path: `/v1/campaigns/${CAMPAIGN}/metrics`, auth: key } },
      ],
    })),
    fc.constantFrom(...READ_PATHS).map(([host, path]) => ({
      kind: 'anonymous', steps: [{
        name: named('auth-first', `no credential on ${path}`),
        request: { host, path, auth: null },
        expect: { status: 401, json: { code: 'AUTHENTICATION_REQUIRED' } },
      }],
    })),
  ]
}

const BAD_RUNS: Array<[string, string[], string]> = [
  ['update_campaign_budget', ['--campaign-id', CAMPAIGN, '--budget', '40'], 'UNRECOGNIZED_ARGS'],
  ['pause_campaign', ['--campaign-id', CAMPAIGN, '--force'], 'UNRECOGNIZED_ARGS'],
  ['update_campaign_budget', ['--campaign-id', CAMPAIGN, '--daily-budget', '0.5'], 'INVALID_ARGS'],
  ['pull_google_ads_performance', ['--days', '7'], 'UNKNOWN_SCRIPT'],
]

/** Refused requests: each must leave the balance as it was (ERR-05). */
function refusals(reach: Reach): fc.Arbitrary<Action> {
  const key = reach.roles.main
  return fc.record({ bad: fc.constantFrom(...BAD_RUNS), index: fc.nat(3) }).map(({ bad: [script, args, code], index }) => ({
    kind: 'refused', steps: [
      pickCampaign(key, index),
      { id: `${OWN}before`, name: named('contract', 'read the balance'), request: { host: 'api', path: '/v1/credits', auth: key }, capture: { balance: '$.balance' } },
      { name: named('refused-changes-nothing', `${script} refused with ${code}`), request: dispatch(key, script, args), expect: { status: 400, json: { code } } },
      { name: named('refused-changes-nothing', 'the balance is unchanged'), request: { host: 'api', path: '/v1/credits', auth: key }, expect: { json: { balance: `\${{ ${OWN}before.balance }}` } } },
    ],
  }))
}

/** Writes and their read-backs: pause twice, a budget set, a held enable. */
function writes(reach: Reach): fc.Arbitrary<Action>[] {
  const key = reach.roles.main
  const readBack = (check: Record<string, unknown>, property: Property, text: string): Step => ({
    name: named(property, text), request: { host: 'api', path: `/v1/campaigns/${CAMPAIGN}`, auth: key }, expect: { status: 200, json: check },
  })
  return [
    fc.nat(3).map((index) => ({
      kind: 'pause-twice', steps: [
        pickCampaign(key, index),
        { name: named('contract', 'pause'), request: dispatch(key, 'pause_campaign', ['--campaign-id', CAMPAIGN]), expect: { status: [200, 409] } },
        { name: named('pause-is-not-repeated', 'pause again'), request: dispatch(key, 'pause_campaign', ['--campaign-id', CAMPAIGN]), expect: { status: 409, json: { code: 'ALREADY_PAUSED' } } },
      ],
    })),
    fc.record({ index: fc.nat(3), budget: fc.integer({ min: 5, max: 60 }) }).map(({ index, budget }) => ({
      kind: 'budget', steps: [
        pickCampaign(key, index),
        { name: named('acknowledged-write-read-back', 'set the daily budget'), request: { method: 'PATCH', host: 'api', path: `/v1/campaigns/${CAMPAIGN}/budget`, auth: key, json: { daily_budget: budget } }, expect: { status: 200 } },
        readBack({ daily_budget: budget }, 'acknowledged-write-read-back', 'the budget reads back'),
      ],
    })),
    fc.nat(3).map((index) => ({
      kind: 'held-enable', steps: [
        pickCampaign(key, index),
        { name: named('contract', 'pause it first'), request: dispatch(key, 'pause_campaign', ['--campaign-id', CAMPAIGN]), expect: { status: [200, 409] } },
        { name: named('held-write-waits', 'enabling is held'), request: dispatch(key, 'enable_campaign', ['--campaign-id', CAMPAIGN]), expect: { status: 202, json: { status: 'pending_review' } } },
        readBack({ status: 'PAUSED' }, 'held-write-waits', 'the campaign is still paused'),
      ],
    })),
    fc.constantFrom('reporting:read', 'campaigns:read').map((scope) => ({
      kind: 'key-once', steps: [
        { id: `${OWN}created`, name: named('contract', 'create a key'), request: { method: 'POST', path: '/api/v1/keys', auth: key, json: { name: `explore ${scope}`, scopes: [scope] } }, expect: { status: 201 }, capture: { key: '$.key' }, secret: ['key'] },
        { name: named('key-shown-once', 'the key list does not show the value'), request: { path: '/api/v1/keys', auth: key }, expect: { status: 200, absent: [`\${{ ${OWN}created.key }}`] } },
      ],
    })),
  ]
}

/** Refusals another credential must meet: a missing scope, another workspace's ids. */
function boundaries(reach: Reach): fc.Arbitrary<Action>[] {
  const { main, other, limited } = reach.roles
  const out: fc.Arbitrary<Action>[] = []
  // A refused write is still a write if the scope is not enforced: only where writes are allowed.
  if (limited && reach.writes) {
    out.push(fc.record({ index: fc.nat(3), budget: fc.integer({ min: 5, max: 60 }) }).map(({ index, budget }) => ({
      kind: 'scope', steps: [
        pickCampaign(limited, index),
        { name: named('scope-enforced', 'a budget change without budget:write'), request: { method: 'PATCH', host: 'api', path: `/v1/campaigns/${CAMPAIGN}/budget`, auth: limited, json: { daily_budget: budget } }, expect: { status: 403, json: { code: 'SCOPE_MISSING' } } },
      ],
    })))
  }
  if (other) {
    out.push(fc.record({ index: fc.nat(3), what: fc.constantFrom('', '/metrics') }).map(({ index, what }) => ({
      kind: 'isolation', steps: [
        pickCampaign(main, index),
        { name: named('workspace-isolation', `another workspace reads /v1/campaigns/{id}${what}`), request: { host: 'api', path: `/v1/campaigns/${CAMPAIGN}${what}`, auth: other }, expect: { status: 404, json: { code: 'NOT_FOUND' } } },
      ],
    })))
  }
  return out
}

/** A 429 from a tiny bucket on `other`'s workspace (only `other` spends it), then the wait it names. */
function rateLimits(reach: Reach): fc.Arbitrary<Action>[] {
  const { other, otherWorkspace } = reach.roles
  if (!reach.control || !other || !otherWorkspace) return []
  // Landing pages: a read the rate limiter counts, which no other action makes with `other`.
  const read = { path: '/api/v1/landing-pages', auth: other }
  return [fc.constant({
    kind: 'rate-limit', steps: [
      { name: named('contract', 'a bucket of one'), control: { rate_limits: { workspace: otherWorkspace, per_key: { capacity: 1, refill_per_second: 0.001 } } } },
      { name: named('contract', 'spend it'), request: read, expect: { status: [200, 429] } },
      { id: `${OWN}limited`, name: named('retry-after-honoured', 'the next read is limited'), request: read, expect: { status: 429, headers: { 'retry-after': { matches: '^[1-9][0-9]*$' } }, json: { code: 'RATE_LIMITED' } } },
      { name: named('retry-after-honoured', 'wait as long as Retry-After says'), wait: { retry_after_from: `${OWN}limited` } },
      { name: named('retry-after-honoured', 'after the wait the read goes through'), request: read, expect: { status: 200 } },
    ],
  })]
}

/** Every action the target lets the exploration take. */
export function actionArbitrary(reach: Reach): fc.Arbitrary<Action> {
  const all = [...reads(reach), ...boundaries(reach), ...mcpActions(reach, reach.mcpTools ?? [])]
  if (reach.writes) all.push(refusals(reach), ...writes(reach), ...rateLimits(reach))
  return fc.oneof(...all)
}
