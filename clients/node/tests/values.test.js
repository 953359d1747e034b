'use strict'
// The conversions, without a server.
const test = require('node:test')
const assert = require('node:assert')
const simhash = require('..')

test('param gives the 16 hex digits of the text form', () => {
  assert.strictEqual(simhash.param(0n), '0000000000000000')
  assert.strictEqual(simhash.param(18446744073709551615n), 'ffffffffffffffff')
  assert.strictEqual(simhash.param(255), '00000000000000ff')
  assert.strictEqual(simhash.param('0x0123456789ABCDEF'), '0123456789abcdef')
  assert.strictEqual(simhash.param(null), null)
  assert.throws(() => simhash.param(-1n), /fromSigned/)
  assert.throws(() => simhash.param(1n << 64n), RangeError)
  assert.throws(() => simhash.param(2 ** 60), /BigInt/)
  assert.throws(() => simhash.param('the quick brown fox jumps over the lazy dog'),
    /^TypeError: not a fingerprint: the quick brown fox jump$/)
})

test('parse, signed values and distance', () => {
  assert.strictEqual(simhash.parse('ffffffffffffffff'), 18446744073709551615n)
  assert.strictEqual(simhash.parse(null), null)
  assert.strictEqual(simhash.fromSigned(-1n), 18446744073709551615n)
  assert.strictEqual(simhash.toSigned(1n << 63n), -(1n << 63n))
  assert.throws(() => simhash.fromSigned(1n << 63n), RangeError)
  assert.strictEqual(simhash.distance(0n, 18446744073709551615n), 64)
  assert.strictEqual(simhash.distance(0b1011n, 0n), 3)
})

test('within and nearest build the indexable clauses', () => {
  assert.deepStrictEqual(simhash.within({ table: ['public', 'pages'], fingerprint: 1n, k: 3 }), {
    text: 'SELECT *, "fp" <-> $1::simhash AS distance FROM "public"."pages" WHERE "fp" <-> $1::simhash <= $2::integer',
    values: ['0000000000000001', 3]
  })
  assert.deepStrictEqual(simhash.nearest({ table: 'pa"ges', column: 'f', text: 'a document', n: 5, columns: ['id'] }), {
    text: 'SELECT "id", "f" <-> simhash($1::text) AS distance FROM "pa""ges" ORDER BY "f" <-> simhash($1::text) LIMIT $2::bigint',
    values: ['a document', 5]
  })
  assert.throws(() => simhash.within({ table: 't', fingerprint: 1n }), /k must be an integer/)
})
