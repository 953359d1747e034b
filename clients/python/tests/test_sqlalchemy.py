"""SQLAlchemy 1.4 (psycopg2 dialect) against the server: the column type,
generated columns, within/distance compiled to the indexable form, reflection."""

import unittest

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import Session, declarative_base

from simhash_pg import Simhash
from simhash_pg.sqlalchemy import SimhashType, simhash_of

from .common import setup_database

Base = declarative_base()


class Doc(Base):
    __tablename__ = "sa_docs"
    id = sa.Column(sa.Integer, primary_key=True)
    body = sa.Column(sa.Text)
    fp = sa.Column(SimhashType, sa.Computed("simhash(body)"))
    tag = sa.Column(SimhashType)
    __table_args__ = (sa.Index("sa_docs_fp", "fp", postgresql_using="simhash"),)


WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike "
         "november oscar papa quebec romeo sierra tango uniform victor whiskey xray").split()


def document(i):
    return " ".join(WORDS[(i * 7 + j * j) % len(WORDS)] + str(j % (3 + i % 5)) for j in range(40))


def setUpModule():
    global engine
    setup_database()
    engine = sa.create_engine("postgresql+psycopg2://", future=True)
    Base.metadata.drop_all(engine)
    Base.metadata.create_all(engine)
    with Session(engine) as session:
        session.add_all([Doc(id=i, body=document(i), tag=2**64 - 1 - i) for i in range(300)])
        session.commit()


def tearDownModule():
    engine.dispose()


class SqlalchemyTest(unittest.TestCase):
    def setUp(self):
        self.session = Session(engine)

    def tearDown(self):
        self.session.close()

    def test_generated_column_read_back(self):
        doc = self.session.get(Doc, 7)
        self.assertIsInstance(doc.fp, Simhash)
        expected = self.session.scalar(sa.select(simhash_of(document(7))))
        self.assertEqual(doc.fp, expected)
        self.assertEqual(doc.tag, 2**64 - 8)

    def test_within_compiles_to_the_indexable_form(self):
        clause = Doc.fp.within(Simhash(1), 3)
        sql = str(clause.compile(dialect=postgresql.dialect()))
        self.assertEqual(sql, "(sa_docs.fp <-> CAST(%(fp_1)s AS simhash)) <= %(param_1)s")
        sql = str(Doc.fp.within(simhash_of("some text"), 3).compile(dialect=postgresql.dialect()))
        self.assertEqual(sql, "(sa_docs.fp <-> simhash(CAST(%(param_1)s AS TEXT))) <= %(param_2)s")

    def test_within_equals_sequential_scan(self):
        q = self.session.get(Doc, 11).fp
        for k in (0, 3, 10, 20):
            got = self.session.scalars(sa.select(Doc.id).where(Doc.fp.within(q, k))
                                       .order_by(Doc.id)).all()
            every = self.session.scalars(sa.select(Doc)).all()
            expected = sorted(d.id for d in every if d.fp.distance(q) <= k)
            self.assertEqual(got, expected, "k=%d" % k)
            self.assertIn(11, got)

    def test_index_answers_within_and_nearest(self):
        q = self.session.get(Doc, 11).fp
        self.session.execute(sa.text("SET enable_seqscan = off"))
        for stmt in (sa.select(Doc.id).where(Doc.fp.within(q, 3)),
                     sa.select(Doc.id).order_by(Doc.fp.distance(q)).limit(5)):
            sql = str(stmt.compile(dialect=postgresql.dialect(),
                                   compile_kwargs={"literal_binds": True}))
            plan = "\n".join(r[0] for r in self.session.execute(sa.text("EXPLAIN " + sql)))
            self.assertIn("Index Scan using sa_docs_fp", plan)

    def test_nearest_with_distances(self):
        q = simhash_of(document(5))
        rows = self.session.execute(sa.select(Doc.id, Doc.fp.distance(q).label("d"))
                                    .order_by(Doc.fp.distance(q), Doc.id).limit(5)).all()
        self.assertEqual(rows[0], (5, 0))
        self.assertEqual([d for _, d in rows], sorted(d for _, d in rows))
        self.assertIs(type(rows[1].d), int)

    def test_parameters_of_each_kind(self):
        for value in (Simhash(2**64 - 1), 2**64 - 1, "ffffffffffffffff"):
            self.assertEqual(self.session.scalar(
                sa.select(Doc.id).where(Doc.tag == value)), 0)

    def test_reflection(self):
        table = sa.Table("sa_docs", sa.MetaData(), autoload_with=engine)
        self.assertIsInstance(table.c.fp.type, SimhashType)
        self.assertIsInstance(table.c.tag.type, SimhashType)
        row = self.session.execute(sa.select(table.c.tag).where(table.c.id == 1)).one()
        self.assertEqual(row.tag, Simhash(2**64 - 2))

    def test_func_simhash_of_a_str_is_refused_clearly(self):
        # func.simhash("...") binds a str, which psycopg2 writes as a literal.
        with self.assertRaises(sa.exc.DataError) as cm:
            self.session.scalar(sa.select(sa.func.simhash("some document")))
        self.assertIn("simhash('...'::text)", str(cm.exception.orig.diag.message_hint))


if __name__ == "__main__":
    unittest.main()
