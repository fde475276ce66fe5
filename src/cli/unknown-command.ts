import type { Command } from 'commander'
import { closest } from '../support/did-you-mean.js'

/**
 * `serve` is the default command and takes no arguments, so a misspelled command (`confrom`)
 * would reach it as a stray argument ("too many arguments for 'serve'"). The first word of the
 * command line is checked against the command names first: the message names the likely one.
 */
export function unknownCommandMessage(program: Command, args: string[]): string | null {
  const word = args[0]
  if (word === undefined || word.startsWith('-')) return null
  const names = program.commands.flatMap((c) => [c.name(), ...c.aliases()])
  if (names.includes(word) || word === 'help') return null
  const best = closest(word, names)
  return `unknown command '${word}'${best ? ` (did you mean ${best}?)` : ''}; commands: ${names.join(', ')}`
}
