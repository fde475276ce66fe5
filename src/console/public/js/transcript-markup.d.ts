// Types for transcript-markup.js, so TypeScript (the rehearsal scorecard) can use the console's renderer.

/** The agent safety transcript as `GET /_sandbox/console/transcript` answers it (src/console/transcript.ts builds it). */
export interface ConsoleTranscript {
  generated_at: string
  filter: { from?: string; to?: string; key_prefix?: string; workspace_id?: string }
  totals: Record<'attempted' | 'executed' | 'held' | 'blocked' | 'approved' | 'rejected' | 'expired' | 'pending' | 'failed', number>
  budget_changes: Array<{
    audit_id: string; at: string; campaign_id: string | null; before: number | null; after: number | null
    requested: number | null; delta: number | null; currency: string | null; status: string; campaign_name?: string | null
  }>
  budget_delta_by_currency: Record<string, number>
  credits: CreditTotals & { reads: CreditTotals; writes: CreditTotals }
  reads: Array<{ script: string; calls: number; credits: number }>
  writes: Array<{ id: string; at: string; workspace_id: string; key_prefix: string; surface?: string; script: string; args?: unknown; operation?: string; decision: string; status: string; reason: string | null; credits: number; review?: unknown
    campaign_name?: string | null; key_name?: string | null; user_name?: string | null }>
}

export interface CreditTotals { charged: number; refunded: number; net: number }

/** An element as data, rendered by `toHtml` (Node) or `toDom` (browser). */
export interface El { tag: string; attrs: Record<string, unknown>; children: Array<El | string | number> }
export type Child = El | string | number | null | undefined | false | Child[]

export const TOTALS: Array<[keyof ConsoleTranscript['totals'], string]>
export function el(tag: string, attrs?: Record<string, unknown> | null, ...children: Child[]): El
export function transcriptTree(t: ConsoleTranscript): El[]
export function toHtml(nodes: Child): string
export function toDom(nodes: Child, doc?: Document): Node[]
export function transcriptHtml(t: ConsoleTranscript): string
