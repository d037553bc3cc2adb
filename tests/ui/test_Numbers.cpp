// Numbers people read: times in details and tooltips to full precision (never coarser than a
// microsecond), signed offsets written once ("-13.012 us", never "+-13.0 us"), and range statistics
// clipped to the range, for both panes, with shares of the range and a CSV export.
#include "DetailsPanel.h"
#include "EventText.h"
#include "MainWindow.h"
#include "RangeStats.h"
#include "RangeStatsModel.h"
#include "RangeStatsWorker.h"
#include "SimRunner.h"
#include "TimeFormat.h"
#include "WindowParts.h"

#include "SyntheticTrace.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

namespace {

// One rank: a 128 ms CPU annotation over a launch at 15.012345 ms (relative to the first event) of a
// kernel that starts 13.012 us after the launch... and a GPU kernel launched 13.012 us *before* its
// launch call's start as recorded (a clock skew the details must print as a negative offset).
std::shared_ptr<const TraceSet> linkedSet() {
    auto set = std::make_shared<TraceSet>();
    Rank rank;
    rank.rank = 0;
    const StringId step = rank.strings.intern("ProfilerStep#7");
    const StringId launch = rank.strings.intern("cudaLaunchKernel");
    const StringId kernel = rank.strings.intern("gemm_kernel");
    Track cpu;
    cpu.kind = TrackKind::CpuThread;
    cpu.pid = 1;
    cpu.tid = 1;
    cpu.name = "thread 1";
    cpu.maxDepth = 1;
    const TimeNs t0 = 1'000'000'000;
    sltest::pushEvent(cpu.events, t0, 128'000'000, step, EventKind::UserAnnotation, 0, -1);
    sltest::pushEvent(cpu.events, t0 + 15'012'345, 5'432, launch, EventKind::Runtime, 1, 0);
    Track gpu;
    gpu.kind = TrackKind::GpuStream;
    gpu.pid = 0;
    gpu.tid = 7;
    gpu.name = "stream 7";
    sltest::pushEvent(gpu.events, t0 + 15'012'345 - 13'012, 2'001'234, kernel, EventKind::Kernel, 0, -1);
    cpu.events.link[1] = EventRef{1, 0}.packed();
    gpu.events.link[0] = EventRef{0, 1}.packed();
    rank.tracks.push_back(std::move(cpu));
    rank.tracks.push_back(std::move(gpu));
    set->ranks.push_back(std::move(rank));
    return set;
}

} // namespace

class TestNumbers : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_Numbers");
    }

    void precise_data() {
        QTest::addColumn<qlonglong>("ns");
        QTest::addColumn<qlonglong>("resolution");
        QTest::addColumn<QString>("text");
        QTest::newRow("exact ms") << 15'012'345LL << 1LL << "15.012345 ms";
        QTest::newRow("exact whole us") << 15'012'000LL << 1LL << "15.012 ms";
        QTest::newRow("exact round ms keeps us") << 15'000'000LL << 1LL << "15.000 ms";
        QTest::newRow("exact us") << 1'500LL << 1LL << "1.5 us";
        QTest::newRow("exact ns") << 850LL << 1LL << "850 ns";
        QTest::newRow("exact s") << 1'234'567'891LL << 1LL << "1.234567891 s";
        QTest::newRow("100 ns") << 15'012'345LL << 100LL << "15.0123 ms";
        QTest::newRow("us") << 15'012'345LL << 1000LL << "15.012 ms";
        QTest::newRow("never coarser than us") << 15'012'345LL << 1'000'000LL << "15.012 ms";
        QTest::newRow("rounds") << 15'012'999LL << 1000LL << "15.013 ms";
        QTest::newRow("negative") << -13'012LL << 1LL << "-13.012 us";
        QTest::newRow("zero") << 0LL << 1LL << "0 ns";
    }
    void precise() {
        QFETCH(qlonglong, ns);
        QFETCH(qlonglong, resolution);
        QFETCH(QString, text);
        QCOMPARE(formatPrecise(ns, resolution), text);
    }
    void signedOffsets() {
        QCOMPARE(formatSigned(13'012), QStringLiteral("+13.012 us"));
        QCOMPARE(formatSigned(-13'012), QStringLiteral("-13.012 us"));
        QCOMPARE(formatSigned(0), QStringLiteral("0 ns"));
        QCOMPARE(formatSigned(-2'500'000, 1000), QStringLiteral("-2.500 ms"));
    }
    void resolutionFollowsZoom() {
        QCOMPARE(resolutionFor(0.3), TimeNs{1});
        QCOMPARE(resolutionFor(63.0), TimeNs{10});
        QCOMPARE(resolutionFor(999.0), TimeNs{100});
        QCOMPARE(resolutionFor(1e6), TimeNs{1000}); // zoomed far out: still microseconds
    }

    // The example: at an 89 us window the details said "15.0 ms" and "(+-13.0 us)".
    void detailsAndTooltip() {
        const auto set = linkedSet();
        const auto data = TimelineData::measured(set);
        const EventId kernel{0, {1, 0}};
        const QString details = eventDetailsHtml(*data, nullptr, kernel);
        QVERIFY2(details.contains(QStringLiteral("14.999333 ms")), qPrintable(details)); // start
        QVERIFY2(details.contains(QStringLiteral("17.000567 ms")), qPrintable(details)); // end
        QVERIFY2(details.contains(QStringLiteral("2.001234 ms")), qPrintable(details));  // duration
        // Launched by the call 13.012 us later than the kernel's start: one sign.
        QVERIFY2(details.contains(QStringLiteral("(+13.012 us)")), qPrintable(details));
        QVERIFY(!details.contains(QStringLiteral("+-")));
        const QString launchDetails = eventDetailsHtml(*data, nullptr, {0, {0, 1}});
        QVERIFY2(launchDetails.contains(QStringLiteral("(-13.012 us)")), qPrintable(launchDetails));
        QVERIFY(!launchDetails.contains(QStringLiteral("+-")));
        // Tooltips: the digits one pixel tells apart (at 63 ns per pixel: tens of ns), never fewer than us.
        const QString fine = eventTooltip(*data, kernel, resolutionFor(63.0));
        QVERIFY2(fine.contains(QStringLiteral("14.99933 ms")), qPrintable(fine));
        const QString coarse = eventTooltip(*data, kernel, resolutionFor(5e6));
        QVERIFY2(coarse.contains(QStringLiteral("14.999 ms")) && coarse.contains(QStringLiteral("2.001 ms")),
                 qPrintable(coarse));
        // Simulated: signed differences.
        std::vector<TimeNs> s0 = set->ranks[0].tracks[0].events.start,
                            d0 = set->ranks[0].tracks[0].events.duration;
        std::vector<TimeNs> s1 = {set->ranks[0].tracks[1].events.start[0] - 2'000}, d1 = {1'000'000};
        const auto sim = TimelineData::build(set, [&](std::size_t, std::size_t k) {
            return k == 0 ? TimeColumns{s0.data(), d0.data()} : TimeColumns{s1.data(), d1.data()};
        });
        const QString both = eventDetailsHtml(*data, sim.get(), kernel);
        QVERIFY2(both.contains(QStringLiteral("(-1.001234 ms)")), qPrintable(both));
        QVERIFY2(both.contains(QStringLiteral("-2 us")), qPrintable(both));
    }

    // 128 ms of annotation inside a 4 ms range counts 4 ms.
    void rangeStatsAreClipped() {
        const auto set = linkedSet();
        const auto data = TimelineData::measured(set);
        const TimeNs a = data->start() + 20'000'000;
        const auto stats = computeRangeStats(*data, nullptr, a, a + 4'000'000);
        QCOMPARE(stats.size(), std::size_t{1});
        QCOMPARE(stats[0].name, QStringLiteral("ProfilerStep#7"));
        QCOMPARE(stats[0].total, TimeNs{4'000'000});
        QCOMPARE(stats[0].max, TimeNs{4'000'000});
        // A range over the kernel's end: only its part inside.
        const TimeNs kEnd = data->track(0, 1).end(0);
        const auto edge = computeRangeStats(*data, nullptr, kEnd - 1'000, kEnd + 1'000);
        for (const NameStats& s : edge)
            QCOMPARE(s.total, TimeNs{s.name == QStringLiteral("gemm_kernel") ? 1'000 : 2'000});
        // Nothing ever exceeds the range per track.
        auto synthetic = TimelineData::measured(sltest::makeSyntheticSet(2, 2, 500));
        const TimeNs mid = (synthetic->start() + synthetic->end()) / 2;
        for (const NameStats& s : computeRangeStats(*synthetic, nullptr, mid, mid + 50'000))
            QVERIFY(s.max <= 50'000);
    }

    void tableMergesPanesAndWritesCsv() {
        NameStats m{QStringLiteral("a,b"), Category::Compute, 2, 3'000, 2'000};
        NameStats s{QStringLiteral("a,b"), Category::Compute, 2, 1'500, 1'000};
        NameStats onlySim{QStringLiteral("c"), Category::CpuOp, 1, 500, 500};
        const RangeTable t = mergeRangeStats({m}, {s, onlySim}, true, 0, 10'000, 2);
        QCOMPARE(t.rows.size(), std::size_t{2});
        QCOMPARE(t.rows[0].measured.total, TimeNs{3'000});
        QCOMPARE(t.rows[0].simulated.total, TimeNs{1'500});
        QCOMPARE(t.rows[1].measured.count, std::int64_t{0});
        QCOMPARE(t.share(3'000), 15.0); // 3 us over 2 ranks of a 10 us range
        const QString csv = rangeTableCsv(t);
        const QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QVERIFY(lines[1].startsWith(QStringLiteral("name,kind,measured_count,measured_ns")));
        QVERIFY(lines[1].contains(QStringLiteral("simulated_ns")));
        QCOMPARE(lines[2], QStringLiteral("\"a,b\",GPU compute,2,3000,15.000,2000,2,1500,7.500,1000"));
        RangeStatsModel model;
        model.setTable(t);
        QCOMPARE(model.data(model.index(0, RangeStatsModel::Share)).toString(), QStringLiteral("15.0%"));
        QCOMPARE(model.data(model.index(0, RangeStatsModel::SimTotal)).toString(), QStringLiteral("1.50 us"));
        QVERIFY(model.columnUsed(RangeStatsModel::SimTotal));
        model.setTable(mergeRangeStats({m}, {}, false, 0, 10'000, 1));
        QVERIFY(!model.columnUsed(RangeStatsModel::SimTotal));
        QVERIFY(model.data(model.index(0, RangeStatsModel::SimTotal)).toString().isEmpty());
    }

    // In the window: the range panel fills from both panes once the simulation is there, clipped.
    void windowRangeBothPanes() {
        MainWindow w;
        w.show();
        const auto set = sltest::makeSyntheticSet(2, 2, 400);
        w.sessions()->showTraceSet(set, {QStringLiteral("/synthetic/numbers")});
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        QCoreApplication::processEvents();
        QVERIFY(w.sessions()->simulation().timeline);
        const TimeNs a = w.sessions()->measured()->start() + 100'000;
        w.sessions()->selection()->setRange(a, a + 200'000);
        QVERIFY(part<RangeStatsPanel>(w)->worker()->waitForIdle(60'000));
        const RangeTable& t = part<RangeStatsPanel>(w)->model()->table();
        QVERIFY(t.hasSimulated);
        QVERIFY(!t.rows.empty());
        bool anySimulated = false;
        for (const RangeRow& r : t.rows) {
            QVERIFY(r.measured.max <= 200'000);
            QVERIFY(r.simulated.max <= 200'000);
            anySimulated = anySimulated || r.simulated.count > 0;
        }
        QVERIFY(anySimulated);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("range.csv"));
        QVERIFY(part<RangeStatsPanel>(w)->exportCsv(path).isEmpty());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString csv = QString::fromUtf8(f.readAll());
        QCOMPARE(csv, rangeTableCsv(t));
        QVERIFY(csv.contains(QStringLiteral("simulated_share_pct")));
    }
};

QTEST_MAIN(TestNumbers)
#include "test_Numbers.moc"
