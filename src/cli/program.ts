import { Command } from 'commander'
import { serveCommand } from './serve.js'
import { mcpCommand } from './mcp.js'
import { conformCommand } from './conform.js'
import { rehearseCommand } from './rehearse.js'
import { catalogCommand } from './catalog.js'
import { recordCommand } from './record.js'

/** The `adops-sandbox` command tree (also read by the docs generator for docs/configuration.md). */
export function buildProgram(): Command {
  return new Command('adops-sandbox')
    .description('A stateful sandbox of the ad-operations tool service, plus a conformance kit.')
    .version('0.1.0')
    .addCommand(serveCommand(), { isDefault: true })
    .addCommand(mcpCommand())
    .addCommand(conformCommand())
    .addCommand(rehearseCommand())
    .addCommand(catalogCommand())
    .addCommand(recordCommand())
}
