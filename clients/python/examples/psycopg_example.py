import psycopg

import simhash_pg.psycopg
from simhash_pg import Simhash

with psycopg.connect() as conn:  # PGHOST, PGPORT, PGDATABASE... from the environment
    simhash_pg.psycopg.register(conn)
    conn.execute("CREATE TEMP TABLE pages (body text, "
                 "fp simhash GENERATED ALWAYS AS (simhash(body)) STORED)")
    conn.execute("INSERT INTO pages (body) VALUES (%s), (%s)",
                  ["The quick brown fox jumps over the lazy dog",
                   "PostgreSQL is an object-relational database"])

    # A str parameter travels untyped, so simhash(%s) is the function.
    q = conn.execute("SELECT simhash(%s)", ["the QUICK brown fox, jumps over the lazy dog!"]).fetchone()[0]
    print(repr(q))                                    # Simhash('8212868318d29267')
    for body, distance in conn.execute(
            "SELECT body, fp <-> %s FROM pages WHERE fp <-> %s <= 3", [q, q]):
        print(distance, body)                         # 0 The quick brown fox ...

    # Fingerprints computed elsewhere: any int from 0 to 2**64 - 1.
    conn.execute("CREATE TEMP TABLE outside (fp simhash)")
    conn.execute("INSERT INTO outside VALUES (%s)", [18446744073709551615])
    print(conn.execute("SELECT fp FROM outside").fetchone()[0])   # ffffffffffffffff
    print(Simhash(0x8212868318d29267).distance(q))                 # 0
