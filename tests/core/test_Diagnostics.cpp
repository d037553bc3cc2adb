// The error type and the warning counters of the core (base/Error.h, base/Diagnostics.h;
// docs/Diagnostics.md): one row per kind with a stable key, counts that add
// up across lists, and errors whose kind says what failed.
#include "TestSupport.h"

#include "base/Diagnostics.h"
#include "base/Error.h"
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"
#include "sim/Knobs.h"

#include <cctype>
#include <set>
#include <string>

using namespace sl;

class TestDiagnostics : public QObject {
    Q_OBJECT

private slots:
    void tableHasOneRowPerKindWithAStableKey() {
        const auto& table = warnTable();
        QVERIFY(!table.empty());
        std::set<std::string_view> keys;
        for (std::size_t i = 0; i < table.size(); ++i) {
            const WarnInfo& w = table[i];
            QCOMPARE(static_cast<std::size_t>(w.kind), i);
            QVERIFY2(keys.insert(w.key).second, std::string(w.key).c_str());
            QVERIFY(!w.message.empty());
            for (char c : w.key)
                QVERIFY2(std::islower(static_cast<unsigned char>(c)) ||
                             std::isdigit(static_cast<unsigned char>(c)) || c == '_',
                         std::string(w.key).c_str());
            QCOMPARE(warnByKey(w.key).value_or(Warn::FileLeftOut) == w.kind, true);
            QCOMPARE(&warnInfo(w.kind), &w);
        }
        QVERIFY(!warnByKey("no_such_warning"));
        QCOMPARE(std::string(severityName(warnInfo(Warn::FileLeftOut).severity)), std::string("data_loss"));
    }

    void countsAddUpAndLinesKeepTheirOrder() {
        Warnings a;
        QVERIFY(a.empty());
        a.add(Warn::GpuOpOverlap, "3 GPU ops overlap", 3);
        a.add(Warn::UnknownEventCategory, "1 events of unknown category", 1);
        Warnings b;
        b.add(Warn::GpuOpOverlap, "2 GPU ops overlap", 2);
        a.append(b, "rank 1: ");
        QCOMPARE(a.size(), std::size_t(3));
        QCOMPARE(a.count(Warn::GpuOpOverlap), std::int64_t(5));
        QCOMPARE(a.count(Warn::DuplicateRank), std::int64_t(0));
        QVERIFY(a.has(Warn::UnknownEventCategory));
        QVERIFY(!a.has(Warn::DuplicateRank));
        QCOMPARE(a.lines().back(), std::string("rank 1: 2 GPU ops overlap"));

        Warnings first;
        first.add(Warn::FileLeftOut, "bad.json: left out");
        a.prepend(first);
        QCOMPARE(a.front().kind == Warn::FileLeftOut, true);
        QCOMPARE(a.lines().size(), std::size_t(4));

        // One counter per kind that occurred, in the table's order, the first line as the example.
        const auto stats = a.stats();
        QCOMPARE(stats.size(), std::size_t(3));
        QVERIFY(stats[0].kind == Warn::FileLeftOut);
        QVERIFY(stats[1].kind == Warn::UnknownEventCategory);
        QVERIFY(stats[2].kind == Warn::GpuOpOverlap);
        QCOMPARE(stats[2].count, std::int64_t(5));
        QCOMPARE(stats[2].occurrences, std::int64_t(2));
        QCOMPARE(stats[2].example, std::string("3 GPU ops overlap"));

        const std::string table = statsTable(stats);
        QVERIFY2(table.find("gpu_op_overlap") != std::string::npos, table.c_str());
        QVERIFY2(table.find(" 5  ") != std::string::npos, table.c_str());
        QCOMPARE(statsTable({}), std::string("no warnings\n"));

        Warnings copy = a;
        QVERIFY(copy == a);
        copy.add(Warn::DuplicateRank, "x");
        QVERIFY(!(copy == a));
    }

    // A knob's warning keeps the knob it names through append and prepend (analysis knobNotes).
    void knobWarningsKeepTheirKnob() {
        Warnings w;
        w.addForKnob("dp.scale", Warn::DpScaleNoCollectives, "nothing re-timed");
        w.add(Warn::GpuOpOverlap, "3 GPU ops overlap", 3);
        Warnings all;
        all.append(w, "rank 1: ");
        all.prepend(w);
        QCOMPARE(all.size(), std::size_t{4});
        QCOMPARE(all.front().knob, std::string("dp.scale"));
        QCOMPARE(std::next(all.begin(), 2)->knob, std::string("dp.scale"));
        QCOMPARE(std::next(all.begin(), 2)->text, std::string("rank 1: nothing re-timed"));
        QVERIFY(std::next(all.begin(), 3)->knob.empty());
    }

    // Loader warnings come with their kind and count (here: a reused correlation id, said once).
    void loaderFillsTheCounters() {
        const std::string trace =
            R"({"traceEvents":[)"
            R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":1}},)"
            R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":5,"args":{"correlation":1}},)"
            R"({"ph":"X","cat":"mystery","name":"m","pid":1,"tid":1,"ts":30,"dur":1},)"
            R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":40,"dur":30,"args":{"correlation":1,"stream":7,"device":0}}]})";
        Rank r = loadKinetoBytes(trace, "reuse.json");
        QCOMPARE(r.warnings.count(Warn::CorrelationIdReused), std::int64_t(1));
        QCOMPARE(r.warnings.count(Warn::UnknownEventCategory), std::int64_t(1));
        QCOMPARE(r.warnings.size(), std::size_t(2));
    }

    void errorsCarryKindFileAndOffset() {
        const LoadError parse("a.json", "invalid JSON", 42);
        QVERIFY(parse.kind() == ErrorKind::Parse);
        QCOMPARE(std::string(parse.what()), std::string("a.json: invalid JSON (at byte 42)"));
        QCOMPARE(parse.file(), std::string("a.json"));
        QCOMPARE(parse.message(), std::string("invalid JSON"));
        QCOMPARE(parse.byteOffset(), std::int64_t(42));
        const LoadError read(ErrorKind::Read, "b.json", "cannot open: No such file or directory");
        QVERIFY(read.kind() == ErrorKind::Read);
        QCOMPARE(read.byteOffset(), std::int64_t(-1));
        QCOMPARE(std::string(read.what()), std::string("b.json: cannot open: No such file or directory"));

        // A write failure is an Error of kind Write, not a LoadError.
        try {
            throw WriteError("out/report.html", "cannot write the report: Permission denied");
        } catch (const LoadError&) {
            QFAIL("a write failure caught as a load error");
        } catch (const Error& e) {
            QVERIFY(e.kind() == ErrorKind::Write);
            QCOMPARE(std::string(e.what()),
                     std::string("out/report.html: cannot write the report: Permission denied"));
        }

        const GraphError alone("the graph has a cycle");
        QVERIFY(alone.kind() == ErrorKind::Graph);
        QCOMPARE(std::string(alone.what()), std::string("the graph has a cycle"));
        QVERIFY(alone.file().empty());
        const GraphError inFile("r0.json", "no ProfilerStep#3");
        QCOMPARE(std::string(inFile.what()), std::string("r0.json: no ProfilerStep#3"));

        SimKnobs k;
        try {
            setKnob(k, "no.such.knob", "1");
            QFAIL("no KnobError");
        } catch (const Error& e) {
            QVERIFY(e.kind() == ErrorKind::Usage);
        }
        QCOMPARE(std::string(errorKindName(ErrorKind::Limit)), std::string("limit"));
    }
};

QTEST_GUILESS_MAIN(TestDiagnostics)
#include "test_Diagnostics.moc"
