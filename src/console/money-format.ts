import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type * as Money from './public/js/money.js'

// The console's money format is a browser ES module shipped as source (src/console/public/js/money.js):
// found next to this module in `src` or from `dist`, so the server's words and the page's agree (issue 37).
const SOURCE = [new URL('./public/js/money.js', import.meta.url), new URL('../../../src/console/public/js/money.js', import.meta.url)]
  .find((u) => existsSync(fileURLToPath(u)))
if (!SOURCE) throw new Error('console assets not found (src/console/public/js/money.js)')

/** `money(-20, 'USD')` → `−$20.00`; `signedMoney(110, 'USD')` → `+$110.00` (Intl, the account currency, U+2212). */
export const { money, signedMoney, signedAmountParts } = (await import(SOURCE.href)) as typeof Money
