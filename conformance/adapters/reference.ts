/**
 * The reference SDK adapter (docs/guide-sdk.md): drives `src/client/rest-client.ts` through
 * the adapter protocol. `--emulate 0.1.1` swaps in a client with SDK 0.1.1's documented defects;
 * `--defect <name>[,<name>]` breaks it on purpose (`no-retry`, `impatient`, `x-api-key`, `list-as-csv`) to test the checks.
 *
 *   adops-sandbox conform --sdk "node --import tsx conformance/adapters/reference.ts" --tags sdk
 *   adops-sandbox conform --sdk "node dist/conformance/adapters/reference.js --emulate 0.1.1" --tags sdk
 */
import { RestClient } from '../../src/client/rest-client.js'
import type { ArgsMap } from '../../src/client/flags.js'
import type { RestClientOptions } from '../../src/client/rest-client.js'
import { Sdk011Client } from './sdk-0.1.1.js'
import { DEFECTS } from './defects.js'
import { serveAdapter } from './serve.js'

const emulate = process.argv.includes('--emulate') ? process.argv[process.argv.indexOf('--emulate') + 1] : null
if (emulate !== null && emulate !== '0.1.1') {
  process.stderr.write(`reference adapter: can only --emulate 0.1.1, not ${emulate}\n`)
  process.exit(2)
}
const defects = process.argv.includes('--defect') ? process.argv[process.argv.indexOf('--defect') + 1].split(',') : []
const unknown = defects.filter((d) => !(d in DEFECTS))
if (unknown.length) {
  process.stderr.write(`reference adapter: unknown --defect ${unknown.join(', ')}; known: ${Object.keys(DEFECTS).join(', ')}\n`)
  process.exit(2)
}
const Client = emulate ? Sdk011Client : RestClient
const VERSION = `${emulate ?? '0.2.0'}${defects.length ? `-broken.${defects.join('.')}` : ''}`
const broken = (options: RestClientOptions) => defects.reduce((o, d) => DEFECTS[d](o), options)

let client: RestClient | null = null
const configured = (): RestClient => {
  if (!client) throw new Error('call configure first')
  return client
}
const str = (params: Record<string, unknown>, name: string) => (params[name] === undefined ? '' : String(params[name]))

/** `args` in the order the runner listed them (`arg_order`), whatever the JSON parser kept. */
function orderedArgs(params: Record<string, unknown>): ArgsMap {
  const args = (params.args ?? {}) as ArgsMap
  const order = Array.isArray(params.arg_order) ? (params.arg_order as string[]) : Object.keys(args)
  return Object.fromEntries(order.map((k) => [k, args[k]]))
}

await serveAdapter({
  version: () => ({ name: 'adops-reference', version: VERSION, language: 'typescript', emulates: emulate }),
  configure: (p) => {
    client = new Client(broken({
      baseUrl: str(p, 'base_url'),
      apiUrl: str(p, 'api_url'),
      apiKey: str(p, 'api_key'),
      timeoutMs: typeof p.timeout_ms === 'number' ? p.timeout_ms : undefined,
      retry: typeof p.max_retries === 'number' ? { maxRetries: p.max_retries } : undefined,
    }))
    return { configured: true }
  },
  execute: (p) => configured().execute(str(p, 'script'), orderedArgs(p), p.platform === undefined ? undefined : str(p, 'platform')),
  pause: (p) => configured().pause(str(p, 'campaign_id'), str(p, 'platform')),
  update_budget: (p) => configured().updateBudget(str(p, 'campaign_id'), Number(p.daily_budget), str(p, 'platform')),
  performance: (p) => configured().performance({ dateRange: p.date_range as string, campaignId: p.campaign_id === undefined ? undefined : str(p, 'campaign_id') }),
})
