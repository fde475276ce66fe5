// Types for money.js, so the server (src/console/write-effect.ts) and the scorecard format money as the console does.
export function money(amount: number | null | undefined, currency?: string | null): string
export function signedMoney(delta: number | null | undefined, currency?: string | null): string
export const SIGNED_AMOUNT: RegExp
export function signedAmountParts(text: string): Array<string | { amount: string }>
