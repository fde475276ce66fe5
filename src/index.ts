/**
 * The package entry (`import { createSandbox } from 'adops-sandbox'`): the in-process sandbox and
 * the typed control-plane client.
 */
export { createSandbox, buildSandbox, StateLockedError, StateHistoryMissingError } from './create-sandbox.js'
export type { CreateSandboxOptions, RunningSandbox, SandboxOptions } from './create-sandbox.js'
export type { Sandbox } from './sandbox.js'
export { ControlClient, ControlError } from './client/control-client.js'
export type { WorkspaceClock } from './client/control-client.js'
export type { WorldKey } from './domain/world.js'
export type { JournalEntry, JournalQuery } from './http/journal.js'
/** A scripted user at the hosted-MCP sign-in page: OAuth tokens for tests without a browser (MCP-01). */
export { signIn, submitSignIn } from './mcp/sign-in-client.js'
