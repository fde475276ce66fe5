#!/usr/bin/env node
import { Command } from 'commander'
import { serveCommand } from './cli/serve.js'
import { mcpCommand } from './cli/mcp.js'
import { conformCommand } from './cli/conform.js'
import { rehearseCommand } from './cli/rehearse.js'
import { unknownCommandMessage } from './cli/unknown-command.js'
import { dropEmptyEnv } from './config.js'

dropEmptyEnv()

const program = new Command('adops-sandbox')
  .description('A stateful sandbox of the ad-operations tool service, plus a conformance kit.')
  .version('0.1.0')
  .addCommand(serveCommand(), { isDefault: true })
  .addCommand(mcpCommand())
  .addCommand(conformCommand())
  .addCommand(rehearseCommand())

const unknown = unknownCommandMessage(program, process.argv.slice(2))
if (unknown) {
  process.stderr.write(`adops-sandbox: ${unknown}\n`)
  process.exit(2)
}
await program.parseAsync(process.argv)
