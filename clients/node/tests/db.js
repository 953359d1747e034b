'use strict'
// A fresh database with the extension on the server that the PG*
// environment variables name, one per test file (node --test runs files in
// parallel): the file's name without .test.js, prefixed by simhash_node_.
const path = require('node:path')
const pg = require('pg')

async function freshDatabase (file) {
  const name = 'simhash_node_' + path.basename(file, '.test.js')
  const admin = new pg.Client({ database: process.env.PGDATABASE || 'postgres' })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${name}`)
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const client = new pg.Client({ database: name })
  await client.connect()
  await client.query('CREATE EXTENSION simhash')
  return { name, client }
}

module.exports = { freshDatabase }
