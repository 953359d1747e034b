'use strict'
// Against the server: the type parser, parameters as node-postgres sends
// them (BigInt, untyped strings), and within/nearest = a sequential scan.
const test = require('node:test')
const assert = require('node:assert')
const pg = require('pg')
const simhash = require('..')
const { freshDatabase } = require('./db')

const FOX = 'The quick brown fox jumps over the lazy dog'
let db

// One test with a subtest per case (subtests run in order, the same on every
// Node.js from 18 on); the database is made first and closed last.
const cases = []
function check (name, fn) { cases.push([name, fn]) }

check('fingerprints come back as BigInt, arrays too', async () => {
  const { rows: [row] } = await db.client.query(
    "SELECT simhash($1) AS fp, ARRAY['ffffffffffffffff'::simhash, NULL] AS a, simhash($1) <-> 0::simhash AS d",
    [FOX])
  assert.strictEqual(row.fp, 0x8212868318d29267n)
  assert.deepStrictEqual(row.a, [18446744073709551615n, null])
  assert.strictEqual(row.d, simhash.distance(row.fp, 0n)) // an int4: a number
})

check('untyped and text-cast string parameters fingerprint the text', async () => {
  const untyped = await db.client.query('SELECT simhash($1) AS fp', [FOX])
  const cast = await db.client.query('SELECT simhash($1::text) AS fp', [FOX])
  assert.strictEqual(untyped.rows[0].fp, 0x8212868318d29267n)
  assert.strictEqual(cast.rows[0].fp, untyped.rows[0].fp)
})

check('a literal in the SQL text fails short, with a hint', async () => {
  const doc = 'a long document, '.repeat(1000)
  await assert.rejects(db.client.query(`SELECT simhash(${db.client.escapeLiteral(doc)})`), (err) => {
    assert.strictEqual(err.code, '22P02')
    assert.ok(err.message.length < 100, err.message)
    assert.match(err.hint, /simhash\('\.\.\.'::text\)/)
    return true
  })
})

check('BigInt parameters: param() and ::numeric work, raw decimal text is refused', async () => {
  const values = [0n, 1n, (1n << 63n) - 1n, 1n << 63n, 18446744073709551615n]
  await db.client.query('CREATE TEMP TABLE ints (fp simhash, via text)')
  for (const v of values) {
    await db.client.query("INSERT INTO ints VALUES ($1, 'param')", [simhash.param(v)])
    await db.client.query("INSERT INTO ints VALUES ($1::numeric, 'numeric')", [v])
  }
  const { rows } = await db.client.query('SELECT via, array_agg(fp ORDER BY fp) AS fps FROM ints GROUP BY via')
  for (const row of rows) assert.deepStrictEqual(row.fps, values, row.via)
  // node-postgres sends a BigInt as decimal text; the type refuses it with a hint.
  await assert.rejects(db.client.query('INSERT INTO ints VALUES ($1)', [18446744073709551615n]),
    (err) => err.code === '22P02' && /numeric/.test(err.hint))
})

check('within and nearest equal a sequential scan, and use the index', async () => {
  const { rows: all } = await db.client.query('SELECT id, fp FROM docs')
  const q = all[17].fp
  for (const k of [0, 3, 12, 25]) {
    const { rows } = await db.client.query(simhash.within({ table: 'docs', fingerprint: q, k, columns: ['id'] }))
    const expected = all.filter((r) => simhash.distance(r.fp, q) <= k).map((r) => r.id).sort((a, b) => a - b)
    assert.deepStrictEqual(rows.map((r) => r.id).sort((a, b) => a - b), expected, `k=${k}`)
    assert.ok(rows.every((r) => r.distance <= k))
  }
  const { rows: near } = await db.client.query(simhash.nearest({ table: 'docs', fingerprint: q, n: 10, columns: ['id'] }))
  const distances = all.map((r) => simhash.distance(r.fp, q)).sort((a, b) => a - b).slice(0, 10)
  assert.deepStrictEqual(near.map((r) => r.distance), distances)

  await db.client.query('SET enable_seqscan = off')
  for (const query of [simhash.within({ table: 'docs', fingerprint: q, k: 3 }),
    simhash.nearest({ table: 'docs', text: FOX, n: 5 })]) {
    const plan = await db.client.query({ text: 'EXPLAIN ' + query.text, values: query.values })
    assert.match(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), /Index Scan using docs_fp/)
  }
  await db.client.query('RESET enable_seqscan')
})

check('registerGlobal serves a pool', async () => {
  const pool = new pg.Pool({ database: db.name, max: 2 })
  try {
    await simhash.registerGlobal(pool)
    const { rows: [row] } = await pool.query('SELECT simhash($1) AS fp', [FOX])
    assert.strictEqual(row.fp, 0x8212868318d29267n)
  } finally {
    await pool.end()
  }
  await assert.rejects(simhash.register(db.client, 'no_such_type'), /CREATE EXTENSION simhash/)
})

test('against a server', async (t) => {
  db = await freshDatabase(__filename)
  await simhash.register(db.client)
  await db.client.query(`CREATE TABLE docs (id int PRIMARY KEY, body text,
                           fp simhash GENERATED ALWAYS AS (simhash(body)) STORED)`)
  await db.client.query(`INSERT INTO docs (id, body)
    SELECT i, string_agg('w' || ((i * j) % 97), ' ') FROM generate_series(1, 300) i,
           generate_series(1, 30) j GROUP BY i`)
  await db.client.query('CREATE INDEX docs_fp ON docs USING simhash (fp)')
  try {
    for (const [name, fn] of cases) await t.test(name, fn)
  } finally {
    await db.client.end()
  }
})
