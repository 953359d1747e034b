'use strict'
// README.md shows examples/example.js verbatim; it runs and prints what its
// comments say.
const test = require('node:test')
const assert = require('node:assert')
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { freshDatabase } = require('./db')

const ROOT = path.join(__dirname, '..')
const EXAMPLE = path.join(ROOT, 'examples', 'example.js')

test('README shows the example verbatim', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
  assert.ok(readme.includes('```js\n' + fs.readFileSync(EXAMPLE, 'utf8') + '```'))
})

test('the example prints what its comments say', async () => {
  const db = await freshDatabase(__filename)
  await db.client.end()
  const out = execFileSync(process.execPath, [EXAMPLE], {
    cwd: ROOT, env: { ...process.env, PGDATABASE: db.name }, encoding: 'utf8'
  })
  assert.deepStrictEqual(out.trim().split('\n'), [
    '8212868318d29267',
    '[ { id: 1, distance: 0 } ]',
    'PostgreSQL is an object-relational database',
    'true true'
  ])
})
