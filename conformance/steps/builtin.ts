import { registerStepKind } from './registry.js'
import { requestSchema, runRequest } from './request.js'
import { controlRequires, controlSchema, runControl } from './control.js'
import { runWait, waitSchema } from './wait.js'
import { journalSchema, runJournal } from './journal.js'
import { includeSchema, runInclude } from './include.js'
// The `sdk` and `sdk_journal` kinds (SDK mode, docs/guide-sdk.md).
import './sdk.js'
// The `mcp` kind (issue 6) registers itself in its own file.
import './mcp.js'

/** The built-in step kinds. An `mcp` or `sdk` kind registers itself the same way. */
registerStepKind({ name: 'request', schema: requestSchema, run: runRequest, exchange: true })
registerStepKind({ name: 'control', schema: controlSchema, requires: controlRequires, run: runControl })
registerStepKind({ name: 'wait', schema: waitSchema, run: runWait })
registerStepKind({ name: 'journal', schema: journalSchema, requires: () => ['journal'], run: runJournal })
registerStepKind({ name: 'include', schema: includeSchema, run: runInclude })
