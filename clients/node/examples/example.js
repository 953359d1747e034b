const pg = require('pg')
const simhash = require('pg-simhash')

async function main () {
  const client = new pg.Client() // PGHOST, PGPORT, PGDATABASE... from the environment
  await client.connect()
  await simhash.register(client) // simhash columns now come back as BigInt

  await client.query(`CREATE TEMP TABLE pages (id serial, body text,
                        fp simhash GENERATED ALWAYS AS (simhash(body)) STORED)`)
  await client.query('INSERT INTO pages (body) VALUES ($1), ($2)',
    ['The quick brown fox jumps over the lazy dog', 'PostgreSQL is an object-relational database'])

  // A string parameter travels untyped, so simhash($1) is the function.
  const { rows: [{ q }] } = await client.query('SELECT simhash($1) AS q',
    ['the QUICK brown fox, jumps over the lazy dog!'])
  console.log(q.toString(16)) // 8212868318d29267

  // fp <-> $1 <= $2 and ORDER BY fp <-> $1 LIMIT $2: what the index answers.
  const near = await client.query(simhash.within({ table: 'pages', fingerprint: q, k: 3, columns: ['id'] }))
  console.log(near.rows) // [ { id: 1, distance: 0 } ]
  const nearest = await client.query(simhash.nearest({
    table: 'pages', text: 'PostgreSQL: an object-relational database!', n: 1, columns: ['body']
  }))
  console.log(nearest.rows[0].body) // PostgreSQL is an object-relational database

  // A BigInt computed elsewhere: param() sends the server's hex form.
  const fp = 18446744073709551615n
  const { rows: [row] } = await client.query('SELECT $1::simhash AS fp, $1::simhash <-> $2 AS d',
    [simhash.param(fp), simhash.param(q)])
  console.log(row.fp === fp, row.d === simhash.distance(fp, q)) // true true
  await client.end()
}

main().catch((err) => { console.error(err); process.exit(1) })
