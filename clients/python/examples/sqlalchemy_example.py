import sqlalchemy as sa
from sqlalchemy.orm import Session, declarative_base

from simhash_pg.sqlalchemy import SimhashType, simhash_of

Base = declarative_base()


class Page(Base):
    __tablename__ = "pages"
    id = sa.Column(sa.Integer, primary_key=True)
    body = sa.Column(sa.Text, nullable=False)
    fp = sa.Column(SimhashType, sa.Computed("simhash(body)"))   # generated, never written
    __table_args__ = (sa.Index("pages_fp", "fp", postgresql_using="simhash"),)


engine = sa.create_engine("postgresql+psycopg2://")  # PGHOST, PGDATABASE... from the environment
Base.metadata.create_all(engine)
with Session(engine) as session:
    session.add_all([Page(body="The quick brown fox jumps over the lazy dog"),
                     Page(body="PostgreSQL is an object-relational database")])
    session.commit()

    q = simhash_of("the QUICK brown fox, jumps over the lazy dog!")   # simhash(CAST(... AS TEXT))
    near = session.scalars(sa.select(Page).where(Page.fp.within(q, 3))).all()   # fp <-> q <= 3
    print([page.body for page in near])                  # ['The quick brown fox jumps over the lazy dog']
    nearest = session.scalars(sa.select(Page).order_by(Page.fp.distance(q)).limit(1)).one()
    print(repr(nearest.fp))                              # Simhash('8212868318d29267')
