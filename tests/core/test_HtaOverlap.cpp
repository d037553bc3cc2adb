// Overlap as Holistic Trace Analysis computes it, against the numbers HTA itself printed for the
// shared traces (../shared/reference/hta-overlap.md, measured with HTA 0.6.1: independent of this
// code), and on hand-made files for the rules that decide it (the "nccl" name rule, memcpy left
// out, the last of several ProfilerSteps left out).
#include "TestSupport.h"

#include "analysis/Breakdown.h"
#include "io/KinetoLoader.h"

#include <QRegularExpression>

using namespace sl;

namespace {

// One row of the reference table: trace path, HTA overlap % per rank (in file-name order).
struct Reference {
    QString trace;
    QList<double> pct;
};

QList<Reference> readReference() {
    QList<Reference> out;
    QFile f(sltest::tracesDir() + "/../reference/hta-overlap.md");
    if (!f.open(QIODevice::ReadOnly)) return out;
    // | dlrm-8rank-v100/kineto | 0 / 1 / ... | 4.50 / 2.47 / ... |
    static const QRegularExpression row(R"(^\|\s*([^|]+?)\s*\|\s*[^|]+\|\s*([0-9./ ]+)\|\s*$)");
    for (const QString& line : QString::fromUtf8(f.readAll()).split('\n')) {
        auto m = row.match(line);
        if (!m.hasMatch()) continue;
        Reference r{m.captured(1), {}};
        for (const QString& v : m.captured(2).split('/'))
            r.pct << v.trimmed().toDouble();
        out << r;
    }
    return out;
}

// A rank file: ProfilerStep annotations at `steps` (us) and GPU ops {name, cat, ts, dur}.
struct Op {
    const char* name;
    const char* cat;
    int ts, dur;
};
QByteArray rankFile(const QList<int>& steps, const QList<Op>& ops) {
    QStringList ev;
    int n = 0;
    for (int s : steps)
        ev << QString(
                  R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#%1","pid":1,"tid":1,"ts":%2,"dur":90})")
                  .arg(n++)
                  .arg(s);
    for (const Op& o : ops)
        ev << QString(
                  R"({"ph":"X","cat":"%1","name":"%2","pid":0,"tid":7,"ts":%3,"dur":%4,"args":{"stream":7,"device":0}})")
                  .arg(o.cat)
                  .arg(o.name)
                  .arg(o.ts)
                  .arg(o.dur);
    return ("{\"traceEvents\":[" + ev.join(',') + "]}").toUtf8();
}

double overlapOf(const QByteArray& content) {
    QTemporaryDir dir;
    TraceSet set = loadTraceSet({sltest::writeFile(dir, "rank0.json", content)});
    return htaOverlapPct(set).at(0);
}

} // namespace

class TestHtaOverlap : public QObject {
    Q_OBJECT
private slots:
    void rules_data() {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<double>("pct");
        // Communication [100, 200); compute [150, 250): half of the communication is overlapped.
        QTest::newRow("half") << rankFile({}, {{"ncclKernel_AllReduce", "kernel", 100, 100},
                                               {"gemm", "kernel", 150, 100}})
                              << 50.0;
        // HTA's rule is the name: "NCCL" in any case is communication, other libraries are compute.
        QTest::newRow("name rule") << rankFile({}, {{"NCCLDevKernel_Send", "kernel", 100, 100},
                                                    {"deep_ep::dispatch", "kernel", 100, 50}})
                                   << 50.0;
        // A memcpy is neither side.
        QTest::newRow("memcpy") << rankFile({}, {{"ncclKernel_AllReduce", "kernel", 100, 100},
                                                 {"Memcpy DtoD (Device -> Device)", "gpu_memcpy", 100, 100}})
                                << 0.0;
        // Two steps: ops from the start of the last step on are left out (the second collective,
        // fully hidden, would raise the overlap to 75%).
        QTest::newRow("last step out") << rankFile({0, 1000}, {{"ncclKernel_AllReduce", "kernel", 100, 100},
                                                               {"gemm", "kernel", 150, 100},
                                                               {"ncclKernel_AllReduce", "kernel", 1100, 100},
                                                               {"gemm", "kernel", 1100, 100}})
                                       << 50.0;
        // One step only: it stays (DLRM's single-step files are measured whole by HTA).
        QTest::newRow("single step kept")
            << rankFile({1000}, {{"ncclKernel_AllReduce", "kernel", 1100, 100}, {"gemm", "kernel", 1100, 50}})
            << 50.0;
        QTest::newRow("no communication") << rankFile({}, {{"gemm", "kernel", 0, 10}}) << 0.0;
    }
    void rules() {
        QFETCH(QByteArray, file);
        QFETCH(double, pct);
        QCOMPARE(overlapOf(file), pct);
    }

    void withinOnePointOfHta() {
        SL_REQUIRE_TRACES();
        const QList<Reference> refs = readReference();
        QVERIFY2(refs.size() >= 3, "../shared/reference/hta-overlap.md has no table rows");
        for (const Reference& ref : refs) {
            TraceSet set = loadTraceSet({sltest::tracePath(qPrintable(ref.trace))});
            const std::vector<double> ours = htaOverlapPct(set);
            QCOMPARE(static_cast<qsizetype>(ours.size()), ref.pct.size());
            for (qsizetype r = 0; r < ref.pct.size(); ++r) {
                const double got = ours[static_cast<std::size_t>(r)];
                QVERIFY2(std::abs(got - ref.pct[r]) <= 1.0, qPrintable(QString("%1 rank %2: %3 % vs HTA %4 %")
                                                                           .arg(ref.trace)
                                                                           .arg(r)
                                                                           .arg(got)
                                                                           .arg(ref.pct[r])));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestHtaOverlap)
#include "test_HtaOverlap.moc"
