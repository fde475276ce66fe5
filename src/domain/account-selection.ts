import type { Deps } from './ports.js'
import type { Campaign, Connection } from './model.js'
import { SandboxError, notFound } from './errors.js'

/** An account chosen by id (dashes optional: `123-456-7890` or `1234567890`) or by name (any case). */
export interface AccountSelection {
  account_id?: string
  account_name?: string
}

const digits = (id: string) => id.replace(/[-\s]/g, '')

/**
 * The ad account a call acts on (issue 35, the real tools' `account_id` / `account_name`): the
 * selected one, or the workspace's only one. A workspace with several accounts and no selection is
 * refused with 400 `ACCOUNT_SELECTION_REQUIRED` listing them, as the real tool asks which account
 * to use; a selection that matches none is 404 like any unknown id (KEY-12). Both given must agree.
 */
export function selectAccount(deps: Deps, workspaceId: string, selection: AccountSelection, platform = 'google'): Connection {
  const accounts = deps.store.connections.filter((c) => c.workspace_id === workspaceId && c.platform === platform && c.status === 'active')
  const { account_id: id, account_name: name } = selection
  if (id === undefined && name === undefined) {
    if (accounts.length === 1) return accounts[0]
    if (accounts.length === 0) throw notFound('A connected Google Ads account')
    throw new SandboxError('ACCOUNT_SELECTION_REQUIRED', {
      count: accounts.length, platform,
      accounts: accounts.map((a) => ({ account_id: a.account_id, account_name: a.account_name })),
    })
  }
  const match = accounts.find((a) => (id === undefined || digits(a.account_id) === digits(id)) &&
    (name === undefined || a.account_name.toLowerCase() === name.trim().toLowerCase()))
  if (!match) throw notFound(`Ad account ${[id, name].filter((v) => v !== undefined).join(' / ')}`)
  return match
}

/** Whether a call names an account at all. */
export function selects(selection: AccountSelection): boolean {
  return selection.account_id !== undefined || selection.account_name !== undefined
}

/**
 * A campaign named by id, checked against an account selection: the campaign id already says which
 * account, so no selection is needed; one that names another account is 404, as a foreign id is.
 */
export function campaignInAccount(deps: Deps, campaign: Campaign, selection: AccountSelection): Campaign {
  if (!selects(selection)) return campaign
  const account = selectAccount(deps, campaign.workspace_id, selection, campaign.platform)
  if (campaign.connection_id !== account.id) throw notFound(`Campaign ${campaign.id} in account ${account.account_id}`)
  return campaign
}
