#!/usr/bin/env node
import { buildProgram } from './cli/program.js'
import { unknownCommandMessage } from './cli/unknown-command.js'
import { dropEmptyEnv } from './config.js'

dropEmptyEnv()

const program = buildProgram()

const unknown = unknownCommandMessage(program, process.argv.slice(2))
if (unknown) {
  process.stderr.write(`adops-sandbox: ${unknown}\n`)
  process.exit(2)
}
await program.parseAsync(process.argv)
