// `npm start`'s prestart: builds dist/ only when a source is newer than the last build, so a
// second start costs a directory walk instead of a compile (issue 18). `npm run build` always builds.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

// Written by `npm run build` after a successful compile (tsc leaves its own build info alone when nothing changed).
const STAMP = 'dist/.build-stamp'
const SOURCES = ['src', 'conformance', 'package.json', 'tsconfig.json', 'tsconfig.build.json']

function newest(path) {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return path.endsWith('.ts') || path.endsWith('.json') ? stat.mtimeMs : 0
  return readdirSync(path).reduce((max, name) => (name === 'node_modules' ? max : Math.max(max, newest(join(path, name)))), stat.mtimeMs)
}

const built = existsSync(STAMP) && existsSync('dist/src/main.js') ? statSync(STAMP).mtimeMs : 0
const changed = Math.max(...SOURCES.map(newest))
if (built >= changed) {
  process.stderr.write('dist/ is current; not rebuilding\n')
} else {
  const result = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' })
  process.exit(result.status ?? 1)
}
