import type { ScriptContext, ScriptExecutor } from './types.js'
import { nowIn } from '../workspace-time.js'
import { optional, str } from './types.js'
import { SandboxError } from '../errors.js'
import type { Connection } from '../model.js'
import { findCampaign, googleConnection } from '../campaigns.js'
import { listCampaigns } from '../campaign-view.js'
import { addDays, dateOf, metricsRange, sumMetrics } from '../metrics.js'
import { hashSeed, prng } from '../seeded.js'
import { SHA256_HEX, usableArtifact } from '../artifacts.js'

const BASE_CONVERSIONS = [
  { name: 'Purchase', category: 'PURCHASE', share: 0.45, value: 80 },
  { name: 'Sign-up', category: 'SIGNUP', share: 0.3, value: 15 },
  { name: 'Lead form', category: 'LEAD', share: 0.2, value: 40 },
  { name: 'Add to cart', category: 'ADD_TO_CART', share: 0.05, value: 0 },
]

const listCustomers: ScriptExecutor = {
  run(ctx) {
    const accounts = ctx.deps.store.connections.filter((c) => c.workspace_id === ctx.workspace.id && c.platform === 'google' && c.status === 'active')
      .map((c) => ({ account_id: c.account_id, account_name: c.account_name, currency: c.currency, timezone: 'America/New_York', status: 'ACTIVE' }))
    return { result: { platform: 'google', accounts } }
  },
}

/** Conversion actions: the account's standard ones (30-day counts split from campaign conversions) plus created ones. */
const listConversions: ScriptExecutor = {
  run(ctx) {
    const now = nowIn(ctx.deps, ctx.workspace.id)
    const end = dateOf(now)
    const total = sumMetrics(listCampaigns(ctx.deps, ctx.workspace.id).flatMap((c) => metricsRange(c, addDays(end, -29), end, now))).conversions
    const base = BASE_CONVERSIONS.map((c, i) => ({
      id: String(hashSeed(ctx.workspace.id, c.name) % 900_000_000 + 100_000_000), name: c.name, category: c.category,
      value: c.value, status: 'ENABLED', count_last_30d: i === 0 ? total - BASE_CONVERSIONS.slice(1).reduce((s, x) => s + Math.floor(total * x.share), 0) : Math.floor(total * c.share),
    }))
    // Executed conversion creations are pinned in memory by the store: no scan of the audit history.
    const created = ctx.deps.store.audit.pinned().filter((a) => a.workspace_id === ctx.workspace.id && a.script === 'google_ads_create_conversion' && a.status === 'executed')
      .map((a) => ({ ...(a.after as object), status: 'ENABLED', count_last_30d: 0 }))
    return { result: { platform: 'google', conversions: [...base, ...created] } }
  },
}

const createConversion: ScriptExecutor = {
  run(ctx) {
    const conversion = {
      id: String(hashSeed(ctx.workspace.id, str(ctx, 'name'), nowIn(ctx.deps, ctx.workspace.id)) % 900_000_000 + 100_000_000),
      name: str(ctx, 'name'), category: str(ctx, 'category'), value: optional<number>(ctx, 'value') ?? 0,
    }
    return {
      before: null,
      after: conversion,
      result: { success: true, simulated: true, conversion_id: conversion.id, conversion_name: conversion.name, category: conversion.category, value: conversion.value },
    }
  },
}

const addKeywords: ScriptExecutor = {
  run(ctx) {
    const keywords = optional<string[]>(ctx, 'keyword') ?? []
    const match_type = optional<string>(ctx, 'match_type') ?? 'BROAD'
    return {
      before: null,
      after: { ad_group_id: str(ctx, 'ad_group_id'), keywords, match_type },
      result: { success: true, simulated: true, ad_group_id: str(ctx, 'ad_group_id'), keywords_added: keywords.length, keywords, match_type },
    }
  },
}

const addNegativeKeywords: ScriptExecutor = {
  preflight(ctx) {
    findCampaign(ctx.deps, ctx.workspace.id, str(ctx, 'campaign_id'))
    return {}
  },
  run(ctx) {
    const campaign = findCampaign(ctx.deps, ctx.workspace.id, str(ctx, 'campaign_id'))
    const keywords = optional<string[]>(ctx, 'keywords') ?? []
    return {
      before: null,
      after: { campaign_id: campaign.id, negative_keywords: keywords },
      result: { success: true, simulated: true, campaign_id: campaign.id, keywords_added: keywords.length, keywords, match_type: 'NEGATIVE_BROAD' },
    }
  },
}

const uploadImage: ScriptExecutor = {
  run(ctx) {
    const connection = googleConnection(ctx.deps, ctx.workspace.id)
    const asset_id = String(hashSeed(str(ctx, 'image_url'), str(ctx, 'asset_name')) % 9_000_000_000 + 1_000_000_000)
    const asset = { asset_id, asset_name: str(ctx, 'asset_name'), image_url: str(ctx, 'image_url') }
    return {
      before: null,
      after: asset,
      result: { success: true, simulated: true, ...asset, resource_name: `customers/${connection.account_id.replace(/-/g, '')}/assets/${asset_id}` },
    }
  },
}

/** Records counted from inline hashes and staged artifacts; refusals are 400 INVALID_ARGS before any charge. */
function audienceSources(ctx: ScriptContext): number {
  let records = 0
  for (const kind of ['hashed_emails', 'hashed_phones']) {
    const inline = optional<string[]>(ctx, kind)
    if (inline) {
      const bad = inline.find((h) => !SHA256_HEX.test(h))
      if (bad !== undefined) throw new SandboxError('INVALID_ARGS', { flag: `--${kind.replace('_', '-')}`, reason: `"${bad.slice(0, 16)}" is not a SHA-256 hex digest` })
      records += inline.length
    }
    const artifactId = optional<string>(ctx, `${kind}_artifact_id`)
    if (artifactId !== undefined) {
      const artifact = usableArtifact(ctx.deps, ctx.workspace.id, artifactId)
      if (typeof artifact === 'string') throw new SandboxError('INVALID_ARGS', { flag: `--${kind.replace('_', '-')}-artifact-id`, reason: artifact })
      records += artifact.record_count
    }
  }
  if (records === 0) throw new SandboxError('INVALID_ARGS', { flag: '--hashed-emails', reason: 'give hashed e-mails or phones, inline or as an artifact id' })
  return records
}

/**
 * The connected Google Ads account a write targets: `--account-id` when given, else the workspace's
 * one. A made-up, disconnected or another workspace's account is 404 NOT_FOUND like any foreign id
 * (KEY-12), found in the preflight so nothing is gated or charged.
 */
function targetAccount(ctx: ScriptContext): Connection {
  return googleConnection(ctx.deps, ctx.workspace.id, optional<string>(ctx, 'account_id'))
}

const createCustomerMatch: ScriptExecutor = {
  preflight(ctx) {
    targetAccount(ctx)
    audienceSources(ctx)
    return {}
  },
  run(ctx) {
    const { account_id } = targetAccount(ctx)
    const record_count = audienceSources(ctx)
    const rate = 0.55 + 0.3 * prng(hashSeed(ctx.workspace.id, str(ctx, 'name')))()
    const audience = {
      audience_id: String(hashSeed(ctx.workspace.id, str(ctx, 'name'), 'aud') % 9_000_000_000 + 1_000_000_000),
      audience_name: str(ctx, 'name'),
      membership_lifespan: optional<number>(ctx, 'membership_lifespan') ?? 540,
    }
    const matched_count = Math.round(record_count * rate)
    return {
      before: null,
      after: audience,
      result: {
        success: true, simulated: true, ...audience, platform: 'google', account_id, status: 'SYNCED', record_count, matched_count,
        match_rate: `${((matched_count / record_count) * 100).toFixed(1)}%`,
      },
    }
  },
}

export const ACCOUNT_EXECUTORS: Record<string, ScriptExecutor> = {
  google_ads_list_customers: listCustomers,
  google_ads_list_conversions: listConversions,
  google_ads_create_conversion: createConversion,
  google_ads_add_keywords: addKeywords,
  google_ads_add_negative_keywords: addNegativeKeywords,
  google_ads_upload_image_asset: uploadImage,
  google_ads_create_customer_match: createCustomerMatch,
}
