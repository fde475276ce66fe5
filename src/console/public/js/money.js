// The console's one money format (issue 37), in the browser and in Node (the review queue's words,
// the rehearsal scorecard): Intl's currency style in the account currency, and a real minus sign
// (U+2212), never a hyphen. `money(-20, 'USD')` → `−$20.00`; `signedMoney(110, 'USD')` → `+$110.00`.

const MINUS = '\u2212'
const formats = new Map()

function format(currency, signDisplay) {
  const id = `${currency}|${signDisplay}`
  if (!formats.has(id)) formats.set(id, new Intl.NumberFormat('en-US', { style: 'currency', currency, signDisplay }))
  return formats.get(id)
}

function render(amount, currency, signDisplay) {
  if (amount === null || amount === undefined || !Number.isFinite(Number(amount))) return '—'
  const value = Number(amount)
  try {
    return format(currency || 'USD', signDisplay).format(value).replace(/-/g, MINUS)
  } catch {
    // An unknown currency code: the number with two decimals and the code, still with a real minus.
    const text = Math.abs(value).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    const sign = value < 0 ? MINUS : signDisplay === 'always' || (signDisplay === 'exceptZero' && value > 0) ? '+' : ''
    return `${sign}${text} ${currency}`
  }
}

/** An amount in `currency` (default USD): `$1,234.50`, `−$20.00`, `€210.00`; `—` for none. */
export function money(amount, currency) {
  return render(amount, currency, 'auto')
}

/** A change of an amount, always signed: `+$110.00`, `−$20.00`, `$0.00` for none. */
export function signedMoney(delta, currency) {
  return render(delta, currency, 'exceptZero')
}

// A signed amount: a sign, then a currency symbol or a three-letter code, then the number. Unicode
// lets a line break between the sign and the symbol (both are prefix characters), so at 390 px a
// "−" could end one line and "$20.00" start the next (issue 37).
export const SIGNED_AMOUNT = /[\u2212+](?:\p{Sc}|[A-Z]{3}[\s\u00a0]?)\d[\d,.]*/gu

/**
 * `text` cut into its plain runs (strings) and its signed amounts (`{ amount }`), for a page to set
 * each amount in a `nowrap` span: the words stay exactly as written (no invisible joiner that
 * copy, paste and find would carry), only the line breaking changes.
 */
export function signedAmountParts(text) {
  if (!text.includes('\u2212') && !text.includes('+')) return [text]
  const parts = []
  let last = 0
  for (const match of text.matchAll(SIGNED_AMOUNT)) {
    if (match.index > last) parts.push(text.slice(last, match.index))
    parts.push({ amount: match[0] })
    last = match.index + match[0].length
  }
  if (last < text.length) parts.push(text.slice(last))
  return parts
}
