// Nsight Systems SQLite exports (docs/Formats.md, "Nsight Systems"): every real export of
// tests/data/formats/nsys loaded through loadTraceSet (format detected by content), its counts held
// against the file's own tables read here with SQL through the SQLite C API (not through the
// loader); launch links against the files' correlation ids; the replay within 1%; GPU 2x against the
// host's blocked time; a GPU-only export written here; hostile inputs, each one line naming the file.
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"
#include "io/TraceFormat.h"
#include "io/nsys/NsysLoader.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>
#include <zlib.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace sl;

namespace {

QString nsysFixture(const QString& name) {
    return QStringLiteral(SIGHTLINE_SOURCE_DIR "/tests/data/formats/nsys/") + name;
}

// The export inside a .sqlite.gz, written plain into dir (SQL needs a plain file).
std::string inflateNsysFixture(const QTemporaryDir& dir, const QString& gzName) {
    gzFile in = gzopen(nsysFixture(gzName).toStdString().c_str(), "rb");
    if (!in) qFatal("cannot open %s", qPrintable(gzName));
    QByteArray bytes;
    char buf[65536];
    int n = 0;
    while ((n = gzread(in, buf, sizeof buf)) > 0)
        bytes.append(buf, n);
    gzclose(in);
    return sltest::writeFile(dir, QString(gzName).remove(QStringLiteral(".gz")), bytes);
}

// A read-only SQLite connection of the test's own.
class NsysSql {
public:
    explicit NsysSql(const std::string& path) {
        if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
            qFatal("cannot open %s", path.c_str());
    }
    ~NsysSql() { sqlite3_close(db_); }
    NsysSql(const NsysSql&) = delete;
    NsysSql& operator=(const NsysSql&) = delete;
    bool hasTable(const std::string& t) const {
        return integer("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '" + t + "'") > 0;
    }
    std::int64_t integer(const std::string& sql) const {
        const std::string v = text(sql);
        return v.empty() ? 0 : std::stoll(v);
    }
    std::string text(const std::string& sql) const {
        std::string v;
        sqlite3_exec(
            db_, sql.c_str(),
            [](void* out, int, char** values, char**) {
                *static_cast<std::string*>(out) = values[0] ? values[0] : "";
                return 0;
            },
            &v, nullptr);
        return v;
    }

private:
    sqlite3* db_ = nullptr;
};

// What the file's own tables say, counted with SQL: GPU work and the CPU side of the processes that
// have GPU work (each such process is a rank).
struct NsysExpected {
    std::int64_t ranks = 0, kernels = 0, copies = 0, sets = 0, calls = 0, ranges = 0, linked = 0;
    std::string version, device;
};

NsysExpected countWithSql(const NsysSql& sql) {
    NsysExpected e;
    const std::vector<std::string> gpuTables = {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                                                "CUPTI_ACTIVITY_KIND_MEMSET"};
    std::string gpuProcs;
    for (const std::string& t : gpuTables)
        if (sql.hasTable(t))
            gpuProcs += (gpuProcs.empty() ? "" : " UNION ") + ("SELECT globalPid >> 24 FROM " + t);
    e.ranks = sql.integer("SELECT count(*) FROM (" + gpuProcs + ")");
    auto rows = [&](const std::string& t) {
        return sql.hasTable(t) ? sql.integer("SELECT count(*) FROM " + t + " WHERE end >= start") : 0;
    };
    e.kernels = rows(gpuTables[0]);
    e.copies = rows(gpuTables[1]);
    e.sets = rows(gpuTables[2]);
    const bool runtime = sql.hasTable("CUPTI_ACTIVITY_KIND_RUNTIME");
    if (runtime) // one call per thread and correlation id (older exports write some twice)
        e.calls = sql.integer("SELECT count(*) FROM (SELECT DISTINCT globalTid, correlationId FROM "
                              "CUPTI_ACTIVITY_KIND_RUNTIME WHERE end >= start AND globalTid >> 24 IN (" +
                              gpuProcs + "))");
    if (sql.hasTable("NVTX_EVENTS"))
        e.ranges =
            sql.integer("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59 AND end IS NOT NULL AND "
                        "end >= start AND globalTid >> 24 IN (" +
                        gpuProcs + ")");
    for (const std::string& t : gpuTables)
        if (runtime && sql.hasTable(t))
            e.linked += sql.integer(
                "SELECT count(*) FROM " + t +
                " g WHERE end >= start AND EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
                "WHERE r.correlationId = g.correlationId AND r.globalTid >> 24 = g.globalPid >> 24)");
    for (const char* t : {"META_DATA_EXPORT", "EXPORT_META_DATA"})
        if (sql.hasTable(t))
            e.version =
                sql.text(std::string("SELECT value FROM ") + t + " WHERE name = 'EXPORT_PRODUCT_VERSION'");
    e.device = sql.text(
        "SELECT name FROM TARGET_INFO_GPU WHERE id = (SELECT deviceId FROM CUPTI_ACTIVITY_KIND_KERNEL "
        "LIMIT 1)");
    return e;
}

std::int64_t kindCount(const TraceSet& set, std::initializer_list<EventKind> kinds) {
    std::int64_t n = 0;
    for (const Rank& r : set.ranks)
        for (EventKind k : kinds)
            n += r.eventsByKind[static_cast<std::size_t>(k)];
    return n;
}

// Host time spent in calls that wait for the GPU, over a rank's processors, in the replay of knobs.
TimeNs nsysBlockedTime(const ExecutionGraph& g, const SimResult& res) {
    TimeNs t = 0;
    for (NodeId n = 0; n < g.nodes.size(); ++n)
        if (g.nodes[n].kind == NodeKind::SyncCall && res.nodes[n].start >= 0)
            t += res.nodes[n].end - res.nodes[n].start;
    return t;
}

// Runs SQL on a new database file (fixtures for GPU-only and hostile inputs).
std::string writeNsysDatabase(const QTemporaryDir& dir, const QString& name, const std::string& sql) {
    const std::string path = dir.filePath(name).toStdString();
    sqlite3* db = nullptr;
    if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) qFatal("cannot create %s", path.c_str());
    char* err = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) qFatal("fixture SQL: %s", err);
    sqlite3_close(db);
    return path;
}

// A GPU-only export: kernels on two streams of one process, no runtime calls. Stream 7 is a queue
// (each kernel starts when the one before ends); stream 8 has an idle gap before its second kernel.
constexpr const char* kGpuOnlySql =
    "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
    "INSERT INTO StringIds VALUES (1, 'gemm_kernel'), (2, 'elementwise_kernel');"
    "CREATE TABLE META_DATA_EXPORT (name TEXT, value TEXT);"
    "INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_VERSION', '2099.1.0');"
    "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,"
    " correlationId INTEGER, globalPid INTEGER, demangledName INTEGER);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES"
    " (1000000, 2000000, 0, 7, 1, 4278190080, 1), (2000000, 3000000, 0, 7, 2, 4278190080, 2),"
    " (3000000, 4000000, 0, 7, 3, 4278190080, 1), (1500000, 1800000, 0, 8, 4, 4278190080, 2),"
    " (3500000, 3600000, 0, 8, 5, 4278190080, 2);";

// Two processes with GPU work in one export (pids 100 and 200, one launch and kernel each) and a
// third with none; env: rows of a (globalPid, name, value) table, or "" for an export without one.
std::string twoProcessSql(const std::string& env) {
    std::string sql =
        "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
        "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'k');"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER,"
        " correlationId INTEGER, nameId INTEGER);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (100, 200, 1677721601, 1, 1),"
        " (100, 200, 3355443201, 1, 1), (100, 200, 5033164801, 1, 1);"
        "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER,"
        " streamId INTEGER, correlationId INTEGER, globalPid INTEGER, shortName INTEGER);"
        "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (300, 900, 0, 7, 1, 1677721600, 2),"
        " (300, 700, 1, 7, 1, 3355443200, 2);";
    if (!env.empty())
        sql += "CREATE TABLE PROCESS_ENV (globalPid INTEGER, name TEXT, value TEXT); INSERT INTO PROCESS_ENV "
               "VALUES " +
               env + ";";
    return sql;
}

// The one-line contract of bad input: a LoadError whose line names the file.
void expectNsysLoadError(const std::string& path, const char* about) {
    try {
        loadTraceSet({path});
        QFAIL(qPrintable(QString("%1: loaded without an error").arg(about)));
    } catch (const LoadError& e) {
        const std::string what = e.what();
        QVERIFY2(what.find('\n') == std::string::npos, what.c_str());
        QVERIFY2(what.starts_with(path + ": "), what.c_str());
    }
}

} // namespace

class TestNsysLoader : public QObject {
    Q_OBJECT

    QTemporaryDir tmp_;

private slots:
    void realExports_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"fuser-report1.sqlite.gz", "perlmutter-cloverleaf-cuda.sqlite.gz",
                              "saxpy-mpi-cuda_nsys_perlmutter0.sqlite.gz", "extrap-con_kernel.sqlite.gz",
                              "extrap-profile1.sqlite.gz"})
            QTest::newRow(f) << QString(f);
    }

    // Counts, links and the replay, against SQL on the same file.
    void realExports() {
        QFETCH(QString, file);
        const std::string path = inflateNsysFixture(tmp_, file);
        QCOMPARE(detectTraceFile(path), TraceFormat::NsysSqlite);
        QCOMPARE(detectTraceFile(nsysFixture(file).toStdString()), TraceFormat::NsysSqlite); // gzip too
        const NsysSql sql(path);
        const NsysExpected e = countWithSql(sql);
        const TraceSet set = loadTraceSet({path});

        QCOMPARE(static_cast<std::int64_t>(set.ranks.size()), e.ranks);
        QCOMPARE(kindCount(set, {EventKind::Kernel}), e.kernels);
        QCOMPARE(kindCount(set, {EventKind::GpuMemcpy}), e.copies);
        QCOMPARE(kindCount(set, {EventKind::GpuMemset}), e.sets);
        QCOMPARE(kindCount(set, {EventKind::Runtime, EventKind::Driver}), e.calls);
        QCOMPARE(kindCount(set, {EventKind::CpuOp, EventKind::UserAnnotation}), e.ranges);
        QVERIFY(e.kernels > 0 && e.calls > 0);

        // Every GPU op links to the call with its own correlation id, and exactly those that the file
        // has a call for do.
        std::int64_t linked = 0;
        for (const Rank& r : set.ranks) {
            QCOMPARE(r.format, std::string("nsys-sqlite"));
            QVERIFY2(r.profiler.find("Nsight Systems " + e.version) != std::string::npos, r.profiler.c_str());
            QCOMPARE(r.deviceName(), e.device);
            for (const Track& t : r.tracks) {
                if (!t.isGpu()) continue;
                for (std::size_t i = 0; i < t.events.size(); ++i) {
                    if (!isGpuOp(t.events.kind[i]) || t.events.link[i] == kNoLink) continue;
                    const EventRef call = EventRef::unpack(t.events.link[i]);
                    QVERIFY(isRuntimeCall(r.tracks[call.track].events.kind[call.index]));
                    QCOMPARE(r.tracks[call.track].events.correlation[call.index], t.events.correlation[i]);
                    ++linked;
                }
            }
        }
        QCOMPARE(linked, e.linked);

        const ExecutionGraph g = buildExecutionGraph(set);
        const SimResult replay = simulate(g, SimKnobs{}, SimOptions{false, nullptr});
        qInfo("%s: %lld ranks, %lld kernels, %lld calls, %lld ranges; replay error %.3f%%", qPrintable(file),
              static_cast<long long>(e.ranks), static_cast<long long>(e.kernels),
              static_cast<long long>(e.calls), static_cast<long long>(e.ranges), replay.iterationErrorPct());
        QVERIFY2(replay.iterationErrorPct() < 1.0, qPrintable(QString::number(replay.iterationErrorPct())));
    }

    // GPU 2x on host-and-GPU exports whose host waits for the GPU: the time the host spends blocked
    // in synchronizing calls must shrink (a kernel that kept its measured start would hold it).
    void gpuTwiceMovesBlockedTime_data() {
        QTest::addColumn<QString>("file");
        QTest::newRow("cloverleaf") << QStringLiteral("perlmutter-cloverleaf-cuda.sqlite.gz");
        QTest::newRow("con_kernel") << QStringLiteral("extrap-con_kernel.sqlite.gz");
    }
    void gpuTwiceMovesBlockedTime() {
        QFETCH(QString, file);
        const TraceSet set = loadTraceSet({nsysFixture(file).toStdString()});
        const ExecutionGraph g = buildExecutionGraph(set);
        SimKnobs fast;
        setKnob(fast, "compute.speedup", "2");
        const SimResult replay = simulate(g, SimKnobs{}, SimOptions{false, nullptr});
        const SimResult twice = simulate(g, fast, SimOptions{false, nullptr});
        const TimeNs before = nsysBlockedTime(g, replay), after = nsysBlockedTime(g, twice);
        auto ms = [](TimeNs t) { return static_cast<double>(t) / 1e6; };
        qInfo("%s: blocked %.3f ms -> %.3f ms; step %.3f ms -> %.3f ms", qPrintable(file), ms(before),
              ms(after), ms(replay.simulatedIteration), ms(twice.simulatedIteration));
        QVERIFY2(before > replay.simulatedIteration / 5, "the host is not blocked enough for this check");
        QVERIFY2(after <= before * 3 / 4, qPrintable(QString("%1 -> %2").arg(before).arg(after)));
        QVERIFY(twice.simulatedIteration < replay.simulatedIteration);
    }

    // Without CPU-side records the rank loads GPU-only and says so; its queues replay in stream order
    // (GPU 2x moves the queued kernels), and a host knob is said not to act.
    void gpuOnlyExport() {
        const std::string path = writeNsysDatabase(tmp_, "gpu-only.sqlite", kGpuOnlySql);
        const TraceSet set = loadTraceSet({path});
        QCOMPARE(set.ranks.size(), std::size_t{1});
        const Rank& r = set.ranks.front();
        QCOMPARE(r.eventsByKind[static_cast<std::size_t>(EventKind::Kernel)], std::int64_t{5});
        QVERIFY(r.warnings.has(Warn::GpuOnlyRank));
        QCOMPARE(r.profiler, std::string("NVIDIA Nsight Systems 2099.1.0"));
        const ExecutionGraph g = buildExecutionGraph(set);
        const SimResult replay = simulate(g, SimKnobs{}, SimOptions{false, nullptr});
        QVERIFY2(replay.iterationErrorPct() < 1.0, qPrintable(QString::number(replay.iterationErrorPct())));
        SimKnobs fast;
        setKnob(fast, "compute.speedup", "2");
        const SimResult twice = simulate(g, fast, SimOptions{false, nullptr});
        // Stream 7's three 1 ms kernels queue behind each other (1 ms -> 2.5 ms); stream 8's second
        // kernel, after the device idled, is a queue head and keeps its measured start: 1 ms -> 3.55 ms.
        QCOMPARE(twice.simulatedIteration, TimeNs{2'550'000});
        SimKnobs host;
        setKnob(host, "cpu.speedup", "2");
        const SimResult hosted = simulate(g, host, SimOptions{false, nullptr});
        QCOMPARE(hosted.simulatedIteration, replay.simulatedIteration);
        bool said = false;
        for (const Warning& w : hosted.warnings)
            said = said || (w.kind == Warn::KnobNoEffect && w.knob == "cpu.speedup");
        QVERIFY(said);
        bool quiet = true; // the replay itself has no knob to warn about
        for (const Warning& w : replay.warnings)
            quiet = quiet && w.kind != Warn::KnobNoEffect;
        QVERIFY(quiet);
    }

    // Each process with GPU work is a rank: by RANK in its recorded environment, else in process order
    // (said); a process without GPU work is none; launches link within their own process only.
    void processesAreRanks() {
        const TraceSet byOrder = loadTraceSet({writeNsysDatabase(tmp_, "two.sqlite", twoProcessSql(""))});
        QCOMPARE(byOrder.ranks.size(), std::size_t{2});
        QVERIFY(byOrder.ranks[0].warnings.has(Warn::RanksByProcessOrder));
        QCOMPARE(byOrder.ranks[0].tracks.front().pid, std::int64_t{100});
        for (const Rank& r : byOrder.ranks) {
            QCOMPARE(r.eventsByKind[static_cast<std::size_t>(EventKind::Runtime)], std::int64_t{1});
            QCOMPARE(r.gpuOpsWithoutLaunch, std::int64_t{0});
        }
        const TraceSet byEnv = loadTraceSet({writeNsysDatabase(
            tmp_, "two-env.sqlite",
            twoProcessSql(
                "(1677721600, 'RANK', '1'), (3355443200, 'RANK', '0'), (3355443200, 'WORLD_SIZE', '2'),"
                " (1677721600, 'WORLD_SIZE', '2'), (1677721600, 'LOCAL_RANK', '5')"))});
        QCOMPARE(byEnv.ranks.size(), std::size_t{2});
        QCOMPARE(byEnv.ranks[0].rank, 0);
        QCOMPARE(byEnv.ranks[0].tracks.front().pid, std::int64_t{200}); // RANK=0 is pid 200
        QCOMPARE(byEnv.ranks[1].worldSize, 2);
        QVERIFY(!byEnv.ranks[0].warnings.has(Warn::RanksByProcessOrder));
    }

    // Hostile inputs: each a LoadError of one line that names the file.
    void hostileInputs() {
        const QByteArray real = [&] {
            QFile f(QString::fromStdString(
                inflateNsysFixture(tmp_, QStringLiteral("extrap-con_kernel.sqlite.gz"))));
            if (!f.open(QIODevice::ReadOnly)) qFatal("cannot read the fixture");
            return f.readAll();
        }();
        for (int cut : {100, 4096, 16384, 65536, 200000})
            expectNsysLoadError(sltest::writeFile(tmp_, QString("cut-%1.sqlite").arg(cut), real.left(cut)),
                                "a truncated export");
        expectNsysLoadError(writeNsysDatabase(tmp_, "foreign.sqlite",
                                              "CREATE TABLE users (id INTEGER, name TEXT);"
                                              "INSERT INTO users VALUES (1, 'ada');"),
                            "another program's database");
        expectNsysLoadError(
            writeNsysDatabase(
                tmp_, "no-gpu-work.sqlite",
                "CREATE TABLE StringIds (id INTEGER, value TEXT);"
                "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER,"
                " correlationId INTEGER, nameId INTEGER);"
                "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1, 2, 16777217, 1, 1);"),
            "an export without GPU work");
        expectNsysLoadError(writeNsysDatabase(tmp_, "no-start-column.sqlite",
                                              "CREATE TABLE StringIds (id INTEGER, value TEXT);"
                                              "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (finish INTEGER);"),
                            "a kernel table without its columns");
        QByteArray garbage("SQLite format 3", 16);
        garbage.append(QByteArray(5000, '\x5a'));
        expectNsysLoadError(sltest::writeFile(tmp_, "garbage.sqlite", garbage), "a header and garbage");
        // The same through the bytes entry point (the fuzz target's).
        try {
            loadNsysBytes(std::string_view(real.constData(), 4096), "in-memory.sqlite");
            QFAIL("a truncated export in memory loaded");
        } catch (const LoadError& e) {
            QVERIFY2(std::string(e.what()).starts_with("in-memory.sqlite: "), e.what());
        }
    }

    // Folders: exports are found beside Kineto files; a .json holding SQLite loads as what it is.
    void detectionByContent() {
        QTemporaryDir dir;
        const std::string plain = inflateNsysFixture(dir, QStringLiteral("extrap-profile1.sqlite.gz"));
        QFile::copy(QString::fromStdString(plain), dir.filePath(QStringLiteral("misnamed.json")));
        QFile::remove(QString::fromStdString(plain));
        QCOMPARE(detectTraceFile(dir.filePath(QStringLiteral("misnamed.json")).toStdString()),
                 TraceFormat::NsysSqlite);
        const TraceSet set = loadTraceSet({dir.path().toStdString()});
        QCOMPARE(set.ranks.size(), std::size_t{1});
        QCOMPARE(set.ranks.front().format, std::string("nsys-sqlite"));
        QCOMPARE(detectTraceFormat("  {\"traceEvents\": []}", "x.json"), TraceFormat::Kineto);
        QCOMPARE(detectTraceFormat("\x08\x01", "chakra.0.et"), TraceFormat::Chakra);
        QCOMPARE(detectTraceFormat("\x08\x01", "x.bin"), TraceFormat::Unknown);
        QVERIFY(isTraceFileName("report.sqlite") && isTraceFileName("r.sqlite.gz") &&
                !isTraceFileName("a.et.json"));
    }
};

QTEST_GUILESS_MAIN(TestNsysLoader)
#include "test_NsysLoader.moc"
