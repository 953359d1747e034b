import psycopg2

import simhash_pg.psycopg2
from simhash_pg import Simhash

conn = psycopg2.connect("")  # PGHOST, PGPORT, PGDATABASE... from the environment
simhash_pg.psycopg2.register(conn)
cur = conn.cursor()

# psycopg2 writes parameters into the SQL as literals: say that a str is text.
cur.execute("SELECT simhash(%s::text)", ["The quick brown fox jumps over the lazy dog"])
q = cur.fetchone()[0]
print(repr(q))                                        # Simhash('8212868318d29267')
cur.execute("SELECT %s <-> %s", [q, Simhash("8212868318d29260")])
print(cur.fetchone()[0])                              # 3
conn.close()
