'use strict'
// node-postgres support for the simhash extension: fingerprints as BigInt
// (0 to 2^64 - 1, the unsigned reading), parameters that the server cannot
// misread, and the two queries the simhash index answers.  See README.md.

const MAX = (1n << 64n) - 1n

// The server's text form (16 hex digits) as a BigInt.
function parse (text) {
  return text === null ? null : BigInt('0x' + text)
}

// A fingerprint as a query parameter: the 16 hex digits of the server's
// text form.  node-postgres would send a BigInt as decimal text, which the
// simhash type does not read (16 decimal digits would even be read as hex).
function param (value) {
  if (value === null || value === undefined) return null
  let n
  if (typeof value === 'bigint') {
    n = value
  } else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      throw new RangeError(`${value} is not a safe integer: pass fingerprints as BigInt`)
    }
    n = BigInt(value)
  } else if (typeof value === 'string' && /^(0x)?[0-9a-fA-F]{16}$/.test(value.trim())) {
    return value.trim().replace(/^0x/, '').toLowerCase()
  } else {
    throw new TypeError(`not a fingerprint: ${String(value).slice(0, 24)}`)
  }
  if (n < 0n || n > MAX) {
    throw new RangeError(`${n} is not an unsigned 64-bit value (0 to 2^64 - 1); use fromSigned() for a signed one`)
  }
  return n.toString(16).padStart(16, '0')
}

// The fingerprint whose 64 bits are the two's complement of a signed value
// (a bigint column, Java's long), and back.
function fromSigned (value) {
  const n = BigInt(value)
  if (n < -(1n << 63n) || n >= (1n << 63n)) throw new RangeError(`${n} is not a signed 64-bit value`)
  return BigInt.asUintN(64, n)
}

function toSigned (fp) {
  return BigInt.asIntN(64, BigInt(fp))
}

// The Hamming distance, as the server's <-> computes it.
function distance (a, b) {
  let x = BigInt.asUintN(64, BigInt(a) ^ BigInt(b))
  let bits = 0
  while (x) {
    x &= x - 1n
    bits++
  }
  return bits
}

async function lookupOids (queryable, name) {
  const { rows } = await queryable.query(
    'SELECT oid, typarray FROM pg_type WHERE oid = to_regtype($1)', [name])
  if (rows.length === 0) throw new Error(`type ${name} not found: run CREATE EXTENSION simhash`)
  return { oid: rows[0].oid, arrayOid: rows[0].typarray }
}

// Looks the type up by name through queryable and sets the BigInt parsers
// of it and its array type on target (a pg.Client or pg.types).
async function setParsers (queryable, target, name) {
  const { oid, arrayOid } = await lookupOids(queryable, name)
  const { arrayParser } = require('pg').types
  target.setTypeParser(oid, 'text', parse)
  target.setTypeParser(arrayOid, 'text', (text) => arrayParser.create(text, parse).parse())
  return oid
}

// Makes simhash and simhash[] columns come back as BigInt on this client
// (a pg.Client, connected).
function register (client, name = 'simhash') {
  return setParsers(client, client, name)
}

// The same for every client of the process (pg.types), for pools: the OIDs
// are looked up through the given client or pool.
function registerGlobal (queryable, name = 'simhash') {
  return setParsers(queryable, require('pg').types, name)
}

function ident (name) {
  const parts = Array.isArray(name) ? name : [name]
  return parts.map((p) => '"' + String(p).replace(/"/g, '""') + '"').join('.')
}

// The probe: a fingerprint (BigInt, number or hex) or, with { text }, the
// fingerprint of a document computed by the server.
function probe (query, values) {
  if (query.text !== undefined) {
    values.push(query.text)
    return `simhash($${values.length}::text)`
  }
  values.push(param(query.fingerprint))
  return `$${values.length}::simhash`
}

function selectList (columns) {
  return columns ? columns.map(ident).join(', ') : '*'
}

function requireInteger (value, name) {
  if (!Number.isInteger(value)) throw new TypeError(`${name} must be an integer, not ${value}`)
}

// SELECT columns, fp <-> q AS distance FROM table, then the clause that
// tail(distance, $n) makes of the distance and the last parameter.
function distanceQuery ({ table, column = 'fp', fingerprint, text, columns }, last, tail) {
  const values = []
  const distance = `${ident(column)} <-> ${probe({ fingerprint, text }, values)}`
  values.push(last)
  return {
    text: `SELECT ${selectList(columns)}, ${distance} AS distance FROM ${ident(table)} ` +
          tail(distance, `$${values.length}`),
    values
  }
}

// { table, column, fingerprint | text, k, columns }: the rows within
// Hamming distance k, as fp <-> q <= k (the clause the index answers), with
// their distance.  Returns a query config for client.query().
function within (query) {
  requireInteger(query.k, 'k')
  return distanceQuery(query, query.k, (distance, k) => `WHERE ${distance} <= ${k}::integer`)
}

// { table, column, fingerprint | text, n, columns }: the n nearest rows, as
// ORDER BY fp <-> q LIMIT n (the k-NN order the index answers).
function nearest (query) {
  requireInteger(query.n, 'n')
  return distanceQuery(query, query.n, (distance, n) => `ORDER BY ${distance} LIMIT ${n}::bigint`)
}

module.exports = { parse, param, fromSigned, toSigned, distance, register, registerGlobal, within, nearest }
