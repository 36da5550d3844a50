"""Makes hostile inputs from real ones, at test time (security.test).

  plant.py finding SRC DST PATH=JSON...  a finding with fields replaced
                                         (PATH: dotted, e.g. case.cut)
  plant.py store DIR PATH=JSON...        the same edit on every stored finding
  plant.py deep DST N                    a "finding" nested N arrays deep
  plant.py rename SRC DST NAME           a graph file with another name
  plant.py view DIR                      the store's cases table replaced
                                         by a recursive view that never ends
"""
import json
import sqlite3
import sys


def edit(doc, assignments):
    for a in assignments:
        path, value = a.split("=", 1)
        keys = path.split(".")
        node = doc
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = json.loads(value)
    return doc


def main(argv):
    what = argv[1]
    if what == "finding":
        with open(argv[2]) as f:
            doc = json.load(f)
        with open(argv[3], "w") as f:
            json.dump(edit(doc, argv[4:]), f)
    elif what == "store":
        db = sqlite3.connect(argv[2] + "/campaign.db")
        rows = db.execute("SELECT id, record FROM findings").fetchall()
        for rid, record in rows:
            doc = edit(json.loads(record), argv[3:])
            db.execute("UPDATE findings SET record = ? WHERE id = ?",
                       (json.dumps(doc), rid))
        db.commit()
    elif what == "deep":
        n = int(argv[3])
        with open(argv[2], "w") as f:
            f.write('{"format": "crosscheck-finding", "version": 1, '
                    '"evidence": ' + "[" * n + "]" * n + "}")
    elif what == "rename":
        with open(argv[2]) as f:
            doc = json.load(f)
        doc["name"] = argv[4].encode().decode("unicode_escape")
        with open(argv[3], "w") as f:
            json.dump(doc, f)
    elif what == "view":
        db = sqlite3.connect(argv[2] + "/campaign.db")
        columns = [c[1] for c in db.execute("PRAGMA table_info(cases)")]
        rows = ", ".join("n AS " + c for c in columns)
        db.executescript(
            "DROP TABLE cases; CREATE VIEW cases AS "
            "WITH RECURSIVE r(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM r) "
            "SELECT " + rows + " FROM r;")
        db.commit()
    else:
        sys.exit("unknown action " + what)


if __name__ == "__main__":
    main(sys.argv)
