"""The brief's other yardstick for context-reset: SQLAlchemy's ORM unit of work doing the same import.

Same records (a file from `loadgen generate`, read before the clock starts), same layout in spirit
(a unique external ID, a category table with a unique name, an index on the foreign key), same
idiom: per 1,000 records, the categories fetched again after the session was cleared, the batch's
keys checked against the store with one IN query (repeats merged away, as the object-trump policy
does when the values are equal), objects added, one commit, then expunge_all() (Core Data's reset).
WAL, synchronous=NORMAL. Prints rows per second of the import.

    python3 orm_import.py FILE.ndjson [BATCH]
"""
import json
import sys
import time
from datetime import datetime, timezone

from sqlalchemy import Float, ForeignKey, Integer, String, create_engine, event, select
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

REFERENCE = datetime(2001, 1, 1, tzinfo=timezone.utc).timestamp()


class Base(DeclarativeBase):
    pass


class Category(Base):
    __tablename__ = "category"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String, unique=True)


class Expense(Base):
    __tablename__ = "expense"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    external_id: Mapped[str] = mapped_column(String, unique=True)
    amount: Mapped[float] = mapped_column(Float)
    date: Mapped[float] = mapped_column(Float)
    note: Mapped[str] = mapped_column(String)
    category_id: Mapped[int] = mapped_column(ForeignKey("category.id"), index=True)
    category: Mapped[Category] = relationship()


def read(path):
    records = []
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            r["date"] = datetime.strptime(r["date"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp() - REFERENCE
            records.append(r)
    return records


def main():
    path, batch = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    store = sys.argv[3] if len(sys.argv) > 3 else "/tmp/orm_import.sqlite"
    records = read(path)
    engine = create_engine(f"sqlite:///{store}")

    @event.listens_for(engine, "connect")
    def pragmas(connection, _):
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=NORMAL")

    Base.metadata.drop_all(engine)
    Base.metadata.create_all(engine)
    start = time.perf_counter()
    with Session(engine) as session:
        for at in range(0, len(records), batch):
            chunk = records[at:at + batch]
            names = {r["categoryName"] for r in chunk}
            categories = {c.name: c for c in session.scalars(select(Category).where(Category.name.in_(names)))}
            keys = [r["id"] for r in chunk]
            seen = set(session.scalars(select(Expense.external_id).where(Expense.external_id.in_(keys))))
            for r in chunk:
                if r["id"] in seen:
                    continue
                seen.add(r["id"])
                category = categories.get(r["categoryName"])
                if category is None:
                    category = categories[r["categoryName"]] = Category(name=r["categoryName"])
                    session.add(category)
                session.add(Expense(external_id=r["id"], amount=r["amount"], date=r["date"], note=r["note"],
                                    category=category))
            session.commit()
            session.expunge_all()
    elapsed = time.perf_counter() - start
    with Session(engine) as session:
        stored = session.query(Expense).count()
    print(f"{len(records) / elapsed:.1f} {stored}")


if __name__ == "__main__":
    main()
