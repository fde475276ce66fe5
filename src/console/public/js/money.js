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
