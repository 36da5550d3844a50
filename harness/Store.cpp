#include "harness/Store.h"

#include "harness/CampaignSteps.h"

#include "core/File.h"
#include "core/Json.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sqlite3.h>
#include <unistd.h>

namespace cc {

using nlohmann::json;

namespace {
constexpr int kStoreVersion = 1;

const char *const kSchema = R"sql(
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS cases(
  idx INTEGER PRIMARY KEY, shard INTEGER, status TEXT NOT NULL,
  graph TEXT, ops INTEGER, seconds REAL, recorded_at REAL, skip_reason TEXT);
CREATE TABLE IF NOT EXISTS findings(
  id INTEGER PRIMARY KEY, signature TEXT UNIQUE NOT NULL, kind TEXT,
  backend TEXT, stage TEXT, detail TEXT, message TEXT,
  first_seen REAL, last_seen REAL, count INTEGER NOT NULL,
  first_case INTEGER, known INTEGER NOT NULL DEFAULT 0,
  record TEXT NOT NULL, reduced TEXT, reduced_ops INTEGER);
CREATE TABLE IF NOT EXISTS case_findings(
  case_idx INTEGER NOT NULL, finding_id INTEGER NOT NULL,
  PRIMARY KEY(case_idx, finding_id));
CREATE TABLE IF NOT EXISTS coverage(
  op TEXT NOT NULL, dtype TEXT NOT NULL, count INTEGER NOT NULL,
  PRIMARY KEY(op, dtype));
CREATE TABLE IF NOT EXISTS pass_coverage(
  kind TEXT NOT NULL, name TEXT NOT NULL, count INTEGER NOT NULL,
  first_case INTEGER, PRIMARY KEY(kind, name));
CREATE TABLE IF NOT EXISTS stage_times(stage TEXT PRIMARY KEY, seconds REAL);
CREATE TABLE IF NOT EXISTS tv_checks(
  pass TEXT PRIMARY KEY, correct INTEGER NOT NULL, incorrect INTEGER NOT NULL,
  unknown INTEGER NOT NULL, timeout INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS case_skips(
  case_idx INTEGER NOT NULL, backend TEXT NOT NULL, reason TEXT NOT NULL,
  PRIMARY KEY(case_idx, backend, reason));
CREATE TABLE IF NOT EXISTS stats(
  at REAL, shard INTEGER, elapsed REAL, cases INTEGER, cases_per_s REAL,
  findings INTEGER, signatures INTEGER, covered_pairs INTEGER);
)sql";

double unixNow() {
  return std::chrono::duration<double>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// One prepared statement; binds by position from 1.
class Stmt {
public:
  Stmt(sqlite3 *db, const char *sql) : db(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK)
      s = nullptr;
  }
  ~Stmt() { sqlite3_finalize(s); }
  bool ok() const { return s != nullptr; }
  Stmt &bind(int i, int64_t v) {
    sqlite3_bind_int64(s, i, v);
    return *this;
  }
  Stmt &bind(int i, double v) {
    sqlite3_bind_double(s, i, v);
    return *this;
  }
  Stmt &bind(int i, const std::string &v) {
    sqlite3_bind_text(s, i, v.data(), int(v.size()), SQLITE_TRANSIENT);
    return *this;
  }
  // SQLITE_ROW, SQLITE_DONE or an error code.
  int step() { return s ? sqlite3_step(s) : SQLITE_ERROR; }
  int64_t integer(int col) { return sqlite3_column_int64(s, col); }
  double real(int col) { return sqlite3_column_double(s, col); }
  std::string text(int col) {
    const unsigned char *t = sqlite3_column_text(s, col);
    return t ? reinterpret_cast<const char *>(t) : "";
  }

private:
  sqlite3 *db;
  sqlite3_stmt *s = nullptr;
};

// Whether database `schema` ("main", "other") has the table.
bool hasTable(sqlite3 *db, const std::string &schema, const char *table) {
  Stmt has(db, ("SELECT 1 FROM " + schema +
                ".sqlite_master WHERE type = 'table' AND name = ?")
                   .c_str());
  has.bind(1, std::string(table));
  return has.step() == SQLITE_ROW;
}

// The class of a compiler's reason not to run a case: its first line
// without the node it names ("node 3 (clamp): "), so that one missing
// feature is one line of the summary.
std::string skipClass(const std::string &reason) {
  std::string r = reason.substr(0, reason.find('\n'));
  if (r.rfind("node ", 0) == 0) {
    size_t colon = r.find("): ");
    if (colon != std::string::npos)
      r = r.substr(colon + 3);
  }
  return r.substr(0, 300);
}

Error sqlError(sqlite3 *db, const std::string &what) {
  return makeError("campaign store: " + what + ": " + sqlite3_errmsg(db));
}

// Runs a statement to completion; an error names what it was for.
Error run(sqlite3 *db, Stmt &st, const std::string &what) {
  if (!st.ok())
    return sqlError(db, "preparing " + what);
  int rc;
  while ((rc = st.step()) == SQLITE_ROW) {
  }
  return rc == SQLITE_DONE ? Error() : sqlError(db, what);
}

// The read budget of Store::open: kReadBudget callbacks, one per
// kProgressStep SQLite VM instructions (about 10^11: hours of reading).
constexpr int kProgressStep = 100000;
constexpr uint64_t kReadBudget = 1000000;

Expected<sqlite3 *> openDb(const std::string &uri, int flags) {
  sqlite3 *db = nullptr;
  flags |= SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
  if (sqlite3_open_v2(uri.c_str(), &db, flags, nullptr) != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    return makeError("cannot open campaign store '" + uri + "': " + msg);
  }
  sqlite3_busy_timeout(db, 5000);
  return db;
}

// The URI that opens `path` for reading only. "mode=ro" sees a running
// campaign's latest commits, but SQLite must create the WAL index beside
// the file; in a directory we cannot write (a downloaded CI artifact) that
// fails, and with no WAL left over "immutable=1" reads the file as it is.
std::string readOnlyUri(const std::string &path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  uintmax_t wal = fs::file_size(path + "-wal", ec);
  bool walLeft = !ec && wal > 0;
  std::string dir = fs::path(path).parent_path().string();
  bool frozen = access(dir.empty() ? "." : dir.c_str(), W_OK) != 0;
  std::string uri = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", unsigned(c));
      uri += hex;
    } else {
      uri += c;
    }
  }
  return uri + (frozen && !walLeft ? "?immutable=1" : "?mode=ro");
}
} // namespace

Store::~Store() { sqlite3_close(db); }

Error Store::exec(const std::string &sql) {
  char *err = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) == SQLITE_OK)
    return Error();
  std::string msg = err ? err : "unknown error";
  sqlite3_free(err);
  return makeError("campaign store: " + msg);
}

// A store may come from anyone (a downloaded CI artifact): it must hold
// tables only, since a view or a trigger is a query of its author's that
// our reads would run (a recursive view never ends).
Error Store::checkFormat(const std::string &dbPath) {
  Stmt st(db, "SELECT value FROM meta WHERE key = 'format'");
  if (!st.ok() || st.step() != SQLITE_ROW ||
      st.text(0) != "crosscheck-campaign")
    return makeError("'" + dbPath + "' is not a crosscheck campaign store");
  Stmt other(db, "SELECT type, name FROM sqlite_master WHERE type NOT IN "
                 "('table', 'index') LIMIT 1");
  if (!other.ok())
    return sqlError(db, "reading the store's schema");
  if (other.step() == SQLITE_ROW)
    return makeError("'" + dbPath + "' is not a crosscheck campaign store: " +
                     "it holds the " + other.text(0) + " '" + other.text(1) +
                     "' (a store holds tables only)");
  return Error();
}

Expected<std::unique_ptr<Store>> Store::open(const std::string &dbPath) {
  if (!std::filesystem::is_regular_file(dbPath))
    return makeError("no campaign store at '" + dbPath + "'");
  std::string uri = readOnlyUri(dbPath);
  CC_ASSIGN(db, openDb(uri, SQLITE_OPEN_READONLY));
  std::unique_ptr<Store> store(new Store(db, uri));
  CC_TRY(store->checkFormat(dbPath));
  // Reading a store is bounded: past kReadBudget virtual-machine steps a
  // query is interrupted (an error), far beyond any real campaign's reads.
  sqlite3_progress_handler(
      db, kProgressStep,
      [](void *steps) {
        return ++*static_cast<uint64_t *>(steps) > kReadBudget ? 1 : 0;
      },
      &store->progressSteps);
  return store;
}

// Opens (or creates) the store of DIR, whose lock the caller holds, to
// write it.
Expected<std::unique_ptr<Store>>
Store::openToWrite(const std::string &dir, std::unique_ptr<DirLock> lock,
                   bool create) {
  std::string path = dbPath(dir);
  CC_ASSIGN(db, openDb(path, SQLITE_OPEN_READWRITE |
                                 (create ? SQLITE_OPEN_CREATE : 0)));
  std::unique_ptr<Store> store(new Store(db, path));
  store->lock = std::move(lock);
  // WAL: readers (reports) never block the campaign's writer; a commit
  // survives the process being killed at any point.
  CC_TRY(store->exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"));
  if (!create) {
    CC_TRY(store->checkFormat(path));
    // A store of an older crosscheck gains the tables it lacks.
    CC_TRY(store->exec(kSchema));
  }
  return store;
}

Expected<std::unique_ptr<Store>> Store::create(const std::string &dir,
                                               const json &identity,
                                               const std::string &advice) {
  CC_TRY(makeDirectory(dir));
  // Locked first: a campaign that starts at the same moment is refused as
  // one in use, never mistaken for an existing one.
  CC_ASSIGN(lock, DirLock::acquire(dir));
  if (std::filesystem::exists(dbPath(dir)))
    return makeError("'" + dir + "' already holds a campaign; " + advice);
  CC_ASSIGN(opened, openToWrite(dir, std::move(lock), /*create=*/true));
  Store &store = *opened;
  CC_TRY(store.exec(std::string("BEGIN;") + kSchema));
  for (auto [key, value] :
       {std::pair<std::string, std::string>{"format", "crosscheck-campaign"},
        {"version", std::to_string(kStoreVersion)},
        {"identity", jsonText(identity)},
        {"created", std::to_string(unixNow())}}) {
    Stmt st(store.db, "INSERT INTO meta(key, value) VALUES (?, ?)");
    st.bind(1, key).bind(2, value);
    CC_TRY(run(store.db, st, "writing the campaign's identity"));
  }
  CC_TRY(store.exec("COMMIT;"));
  return std::move(opened);
}

Expected<std::unique_ptr<Store>> Store::resume(const std::string &dir,
                                               const json &identity) {
  if (!std::filesystem::exists(dbPath(dir)))
    return makeError("nothing to resume: '" + dir +
                     "' holds no campaign (campaign.db)");
  CC_ASSIGN(lock, DirLock::acquire(dir));
  CC_ASSIGN(store, openToWrite(dir, std::move(lock), /*create=*/false));
  CC_ASSIGN(stored, store->identity());
  // The case stream must be the same one, or resuming would mix streams.
  for (const auto &[key, value] : identity.items())
    if (stored.value(key, json()) != value)
      return makeError("cannot resume '" + dir + "': its " + key + " was " +
                       jsonText(stored.value(key, json())) + ", now " +
                       jsonText(value) + " (resume with the same flags)");
  return std::move(store);
}

Expected<json> Store::identity() {
  Stmt st(db, "SELECT value FROM meta WHERE key = 'identity'");
  if (st.step() != SQLITE_ROW)
    return sqlError(db, "reading the campaign's identity");
  auto j = parseJson(st.text(0));
  if (!j || !j->is_object())
    return makeError("campaign store: malformed identity");
  return *j;
}

Expected<std::unordered_set<uint64_t>> Store::recordedCases() {
  std::unordered_set<uint64_t> done;
  Stmt st(db, "SELECT idx FROM cases");
  int rc;
  while ((rc = st.step()) == SQLITE_ROW)
    done.insert(uint64_t(st.integer(0)));
  if (rc != SQLITE_DONE)
    return sqlError(db, "reading recorded cases");
  return done;
}

Error Store::record(const CaseOutcome &o, uint32_t shard) {
  // A finding must survive even a power loss: sync its commit fully.
  CC_TRY(exec(o.findings.empty()
                  ? "PRAGMA synchronous=NORMAL; BEGIN IMMEDIATE;"
                  : "PRAGMA synchronous=FULL; BEGIN IMMEDIATE;"));
  auto body = [&]() -> Error {
    double now = o.recordedAt > 0 ? o.recordedAt : unixNow();
    Stmt c(db, "INSERT INTO cases(idx, shard, status, graph, ops, seconds, "
               "recorded_at, skip_reason) VALUES (?,?,?,?,?,?,?,?)");
    c.bind(1, int64_t(o.index)).bind(2, int64_t(shard));
    c.bind(3, std::string(o.skipped            ? "skipped"
                          : o.findings.empty() ? "pass"
                                               : "finding"));
    c.bind(4, o.graphName).bind(5, int64_t(o.ops)).bind(6, o.seconds);
    c.bind(7, now).bind(8, o.skipReason);
    CC_TRY(run(db, c, "recording case " + std::to_string(o.index)));
    for (const FindingRecord &f : o.findings) {
      const Signature &s = f.finding.signature;
      std::string key = s.str();
      Stmt up(db,
              "INSERT INTO findings(signature, kind, backend, stage, detail, "
              "message, first_seen, last_seen, count, first_case, known, "
              "record) VALUES (?,?,?,?,?,?,?,?,1,?,?,?) "
              "ON CONFLICT(signature) DO UPDATE SET count = count + 1, "
              "last_seen = excluded.last_seen");
      up.bind(1, key).bind(2, std::string(kindName(s.kind))).bind(3, s.backend);
      up.bind(4, s.stage).bind(5, s.detail).bind(6, f.finding.message);
      up.bind(7, now).bind(8, now).bind(9, int64_t(o.index));
      up.bind(10, int64_t(known.count(key)))
          .bind(11, jsonText(findingToJson(f)));
      CC_TRY(run(db, up, "recording a finding"));
      Stmt link(db, "INSERT OR IGNORE INTO case_findings(case_idx, finding_id) "
                    "SELECT ?, id FROM findings WHERE signature = ?");
      link.bind(1, int64_t(o.index)).bind(2, key);
      CC_TRY(run(db, link, "linking a finding to its case"));
    }
    for (const BackendSkip &u : o.unsupported) {
      Stmt sk(db, "INSERT OR IGNORE INTO case_skips(case_idx, backend, "
                  "reason) VALUES (?,?,?)");
      sk.bind(1, int64_t(o.index)).bind(2, u.backend);
      sk.bind(3, skipClass(u.reason));
      CC_TRY(run(db, sk, "recording a compiler's skip"));
    }
    for (const auto &[key, n] : o.coverage) {
      Stmt cov(db, "INSERT INTO coverage(op, dtype, count) VALUES (?,?,?) "
                   "ON CONFLICT(op, dtype) DO UPDATE SET count = count + "
                   "excluded.count");
      cov.bind(1, key.first).bind(2, key.second).bind(3, n);
      CC_TRY(run(db, cov, "recording coverage"));
    }
    for (const auto &[key, n] : o.passCoverage) {
      Stmt pc(db, "INSERT INTO pass_coverage(kind, name, count, first_case) "
                  "VALUES (?,?,?,?) ON CONFLICT(kind, name) DO UPDATE SET "
                  "count = count + excluded.count, "
                  "first_case = MIN(first_case, excluded.first_case)");
      pc.bind(1, key.first).bind(2, key.second).bind(3, n);
      pc.bind(4, int64_t(o.index));
      CC_TRY(run(db, pc, "recording pass coverage"));
    }
    for (const auto &[pass, t] : o.tvChecks) {
      Stmt tv(db, "INSERT INTO tv_checks(pass, correct, incorrect, unknown, "
                  "timeout) VALUES (?,?,?,?,?) ON CONFLICT(pass) DO UPDATE "
                  "SET correct = correct + excluded.correct, incorrect = "
                  "incorrect + excluded.incorrect, unknown = unknown + "
                  "excluded.unknown, timeout = timeout + excluded.timeout");
      tv.bind(1, pass).bind(2, t.correct).bind(3, t.incorrect);
      tv.bind(4, t.unknown).bind(5, t.timeout);
      CC_TRY(run(db, tv, "recording translation validation"));
    }
    for (const auto &[stage, seconds] : o.times) {
      Stmt t(db, "INSERT INTO stage_times(stage, seconds) VALUES (?,?) "
                 "ON CONFLICT(stage) DO UPDATE SET seconds = seconds + "
                 "excluded.seconds");
      t.bind(1, stage).bind(2, seconds);
      CC_TRY(run(db, t, "recording stage times"));
    }
    return Error();
  };
  if (Error e = body()) {
    (void)exec("ROLLBACK;");
    return e;
  }
  return exec("COMMIT;");
}

Error Store::recordStats(const CampaignProgress &p, uint32_t shard) {
  Stmt st(db, "INSERT INTO stats(at, shard, elapsed, cases, cases_per_s, "
              "findings, signatures, covered_pairs) VALUES "
              "(?,?,?,?,?,?,?,(SELECT COUNT(*) FROM coverage))");
  st.bind(1, unixNow()).bind(2, int64_t(shard)).bind(3, p.elapsed);
  st.bind(4, int64_t(p.cases)).bind(5, p.casesPerSecond);
  st.bind(6, int64_t(p.findings)).bind(7, int64_t(p.signatures));
  return run(db, st, "recording statistics");
}

Expected<uint64_t> Store::caseCount() {
  Stmt st(db, "SELECT COUNT(*) FROM cases");
  if (st.step() != SQLITE_ROW)
    return sqlError(db, "counting cases");
  return uint64_t(st.integer(0));
}

Expected<StageTimes> Store::stageTimes() {
  StageTimes times;
  Stmt st(db, "SELECT stage, seconds FROM stage_times UNION ALL "
              "SELECT 'case', COALESCE(SUM(seconds), 0) FROM cases");
  int rc;
  while ((rc = st.step()) == SQLITE_ROW)
    times[st.text(0)] += st.real(1);
  if (rc != SQLITE_DONE)
    return sqlError(db, "reading stage times");
  return times;
}

Expected<std::vector<SignatureSummary>> Store::signatures() {
  CC_ASSIGN(all, findings());
  std::vector<SignatureSummary> out;
  for (Stored &f : all)
    out.push_back(f.summary);
  return out;
}

Expected<std::vector<Store::PassCoverage>> Store::passCoverage() {
  std::vector<PassCoverage> out;
  Stmt st(db, "SELECT p.kind, p.name, p.count, p.first_case, "
              "COALESCE(c.recorded_at, 0) FROM pass_coverage p "
              "LEFT JOIN cases c ON c.idx = p.first_case "
              "ORDER BY p.kind, p.name");
  int rc;
  while ((rc = st.step()) == SQLITE_ROW)
    out.push_back({st.text(0), st.text(1), st.integer(2),
                   uint64_t(st.integer(3)), st.real(4)});
  if (rc != SQLITE_DONE)
    return sqlError(db, "reading pass coverage");
  return out;
}

Expected<TvChecks> Store::tvChecks() {
  TvChecks out;
  // A store from before the table has none to read (opened read-only).
  if (!hasTable(db, "main", "tv_checks"))
    return out;
  Stmt st(db, "SELECT pass, correct, incorrect, unknown, timeout "
              "FROM tv_checks ORDER BY pass");
  int rc;
  while ((rc = st.step()) == SQLITE_ROW)
    out[st.text(0)] = {st.integer(1), st.integer(2), st.integer(3),
                       st.integer(4)};
  if (rc != SQLITE_DONE)
    return sqlError(db, "reading translation validation");
  return out;
}

Expected<std::vector<Store::BackendSkips>> Store::backendSkips() {
  std::vector<BackendSkips> out;
  if (!hasTable(db, "main", "case_skips"))
    return out;
  Stmt st(db, "SELECT backend, reason, COUNT(*) FROM case_skips "
              "GROUP BY backend, reason ORDER BY backend, COUNT(*) DESC, "
              "reason");
  int rc;
  while ((rc = st.step()) == SQLITE_ROW)
    out.push_back({st.text(0), st.text(1), st.integer(2)});
  if (rc != SQLITE_DONE)
    return sqlError(db, "reading the compilers' skips");
  return out;
}

Expected<std::vector<Store::CaseTime>> Store::caseTimeline() {
  std::vector<CaseTime> out;
  Stmt st(db, "SELECT recorded_at, status FROM cases ORDER BY recorded_at");
  int rc;
  while ((rc = st.step()) == SQLITE_ROW)
    out.push_back({st.real(0), st.text(1) == "skipped"});
  if (rc != SQLITE_DONE)
    return sqlError(db, "reading cases");
  return out;
}

Expected<std::vector<Store::OpCoverage>> Store::opCoverage() {
  std::vector<OpCoverage> out;
  Stmt st(db, "SELECT op, dtype, count FROM coverage ORDER BY op, dtype");
  int rc;
  while ((rc = st.step()) == SQLITE_ROW)
    out.push_back({st.text(0), st.text(1), st.integer(2)});
  if (rc != SQLITE_DONE)
    return sqlError(db, "reading coverage");
  return out;
}

Expected<std::map<std::string, Store::FindingTimes>> Store::findingTimes() {
  std::map<std::string, FindingTimes> out;
  Stmt st(db, "SELECT signature, first_seen, last_seen FROM findings");
  int rc;
  while ((rc = st.step()) == SQLITE_ROW)
    out[st.text(0)] = {st.real(1), st.real(2)};
  if (rc != SQLITE_DONE)
    return sqlError(db, "reading findings");
  return out;
}

Error Store::saveReduced(const Signature &s, const FindingRecord &reduced) {
  int ops = reduced.reduction ? reduced.reduction->opsAfter : -1;
  Stmt st(db, "UPDATE findings SET reduced = ?, reduced_ops = ? WHERE "
              "signature = ?");
  st.bind(1, jsonText(findingToJson(reduced))).bind(2, int64_t(ops));
  st.bind(3, s.str());
  return run(db, st, "recording a reduced case");
}

Expected<std::vector<Store::Stored>> Store::findings() {
  std::vector<Stored> out;
  Stmt st(db, "SELECT signature, message, count, known, record, reduced, "
              "reduced_ops FROM findings ORDER BY first_seen, id");
  int rc;
  while ((rc = st.step()) == SQLITE_ROW) {
    auto j = parseJson(st.text(4));
    auto record = j ? findingFromJson(*j) : Expected<FindingRecord>(j.error());
    if (!record)
      return record.error().withContext("campaign store: finding " +
                                        st.text(0));
    Stored f{std::move(*record), {}, std::nullopt};
    SignatureSummary &s = f.summary;
    s.signature = f.record.finding.signature;
    s.message = st.text(1);
    s.count = uint64_t(st.integer(2));
    s.known = st.integer(3) != 0 || known.count(st.text(0));
    if (std::string reduced = st.text(5); !reduced.empty()) {
      auto rj = parseJson(reduced);
      auto r = rj ? findingFromJson(*rj) : Expected<FindingRecord>(rj.error());
      if (!r)
        return r.error().withContext("campaign store: reduced " + st.text(0));
      f.reduced = std::move(*r);
      s.reducedOps = int(st.integer(6));
    }
    out.push_back(std::move(f));
  }
  if (rc != SQLITE_DONE)
    return sqlError(db, "reading findings");
  return out;
}

Error Store::mergeFrom(Store &other) {
  CC_TRY(exec("PRAGMA synchronous=FULL; BEGIN IMMEDIATE;"));
  auto body = [&]() -> Error {
    Stmt attach(db, "ATTACH DATABASE ? AS other");
    attach.bind(1, other.uri);
    CC_TRY(run(db, attach, "attaching '" + other.uri + "'"));
    // Findings first: a case already present keeps its own links.
    CC_TRY(exec(R"sql(
      INSERT INTO findings(signature, kind, backend, stage, detail, message,
                           first_seen, last_seen, count, first_case, known,
                           record, reduced, reduced_ops)
        SELECT signature, kind, backend, stage, detail, message, first_seen,
               last_seen, 0, first_case, known, record, reduced, reduced_ops
        FROM other.findings
        WHERE true
        ON CONFLICT(signature) DO UPDATE SET
          first_seen = MIN(first_seen, excluded.first_seen),
          last_seen = MAX(last_seen, excluded.last_seen),
          known = MAX(known, excluded.known),
          record = CASE WHEN excluded.first_seen < first_seen
                        THEN excluded.record ELSE record END,
          reduced = COALESCE(reduced, excluded.reduced),
          reduced_ops = COALESCE(reduced_ops, excluded.reduced_ops);
      CREATE TEMP TABLE new_cases AS
        SELECT idx FROM other.cases WHERE idx NOT IN (SELECT idx FROM cases);
      INSERT INTO cases SELECT * FROM other.cases
        WHERE idx IN (SELECT idx FROM new_cases);
      INSERT OR IGNORE INTO case_findings(case_idx, finding_id)
        SELECT cf.case_idx, f.id FROM other.case_findings cf
          JOIN other.findings of ON of.id = cf.finding_id
          JOIN findings f ON f.signature = of.signature
        WHERE cf.case_idx IN (SELECT idx FROM new_cases);
      UPDATE findings SET count =
        (SELECT COUNT(*) FROM case_findings WHERE finding_id = findings.id);
      INSERT INTO coverage(op, dtype, count)
        SELECT op, dtype, count FROM other.coverage WHERE true
        ON CONFLICT(op, dtype) DO UPDATE SET count = count + excluded.count;
      INSERT INTO pass_coverage(kind, name, count, first_case)
        SELECT kind, name, count, first_case FROM other.pass_coverage
        WHERE true ON CONFLICT(kind, name) DO UPDATE SET
          count = count + excluded.count,
          first_case = MIN(first_case, excluded.first_case);
      INSERT INTO stage_times(stage, seconds)
        SELECT stage, seconds FROM other.stage_times WHERE true
        ON CONFLICT(stage) DO UPDATE SET seconds = seconds + excluded.seconds;
      INSERT INTO stats SELECT * FROM other.stats;
    )sql"));
    // Tables a store from before them does not have.
    if (hasTable(db, "other", "case_skips"))
      CC_TRY(exec(R"sql(
        INSERT OR IGNORE INTO case_skips SELECT * FROM other.case_skips
          WHERE case_idx IN (SELECT idx FROM new_cases);
      )sql"));
    if (hasTable(db, "other", "tv_checks"))
      CC_TRY(exec(R"sql(
        INSERT INTO tv_checks(pass, correct, incorrect, unknown, timeout)
          SELECT pass, correct, incorrect, unknown, timeout FROM other.tv_checks
          WHERE true ON CONFLICT(pass) DO UPDATE SET
            correct = correct + excluded.correct,
            incorrect = incorrect + excluded.incorrect,
            unknown = unknown + excluded.unknown,
            timeout = timeout + excluded.timeout;
      )sql"));
    return exec("DROP TABLE new_cases;");
  };
  Error e = body();
  if (e) {
    (void)exec("ROLLBACK;");
    (void)exec("DETACH DATABASE other;");
    return e;
  }
  CC_TRY(exec("COMMIT;"));
  return exec("DETACH DATABASE other;");
}

Expected<std::unique_ptr<Store>>
openCampaignStore(const CampaignOptions &options, const json &identity) {
  auto store = options.resume ? Store::resume(options.outDir, identity)
                              : Store::create(options.outDir, identity);
  if (!store || options.baseline.empty())
    return store;
  CC_ASSIGN(known, loadBaseline(options.baseline));
  (*store)->setKnown(std::move(known));
  return store;
}

Expected<std::set<std::string>> loadBaseline(const std::string &path) {
  namespace fs = std::filesystem;
  std::set<std::string> out;
  std::string file = path;
  if (fs::is_directory(path))
    file = fs::exists(Store::dbPath(path)) ? Store::dbPath(path)
                                           : path + "/findings.json";
  if (!fs::exists(file))
    return makeError("baseline '" + path + "' does not exist");
  if (file.ends_with(".json")) {
    CC_ASSIGN(text, readFile(file));
    auto parsed = parseJson(text);
    json j = parsed ? *parsed : json();
    if (!j.is_object() || !j.contains("findings") || !j["findings"].is_array())
      return makeError("baseline '" + file +
                       "' is not a crosscheck findings.json");
    for (const json &f : j["findings"])
      if (f.is_object() && f.contains("signature"))
        if (auto s = signatureFromJson(f["signature"]))
          out.insert(s->str());
    return out;
  }
  CC_ASSIGN(store, Store::open(file));
  CC_ASSIGN(sigs, store->signatures());
  for (const SignatureSummary &s : sigs)
    out.insert(s.signature.str());
  return out;
}

} // namespace cc
