// Execution traces and Chakra input in the GUI (docs/Chakra.md): an et/ folder beside kineto/ is
// attached on load, a Chakra set's measured pane says it has no measured times while the simulated
// pane shows the replay, and the details of a GPU op name its operator's input shapes and types.
#include "TestSupport.h"

#include "EventText.h"
#include "MainWindow.h"
#include "SimRunner.h"
#include "TimelinePanes.h"
#include "TimelineView.h"
#include "TraceLoader.h"
#include "WindowParts.h"

#include "analysis/BenchmarkExport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

class TestChakraGui : public QObject {
    Q_OBJECT
    static void load(MainWindow& w, const QStringList& paths) {
        w.sessions()->openTraces(paths);
        QVERIFY(w.sessions()->loader()->waitForFinished(120'000));
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_ChakraGui");
    }

    void etBesideKinetoIsAttached() {
        SL_REQUIRE_TRACES();
        MainWindow w;
        load(w, {QString::fromStdString(sltest::tracePath("dlrm-8rank-v100/kineto"))});
        QVERIFY(w.sessions()->traceSet());
        QCOMPARE(w.sessions()->traceSet()->warnings.count(Warn::EtLinked), std::int64_t(8)); // files linked
        // The Kineto files carry no collective sizes (old format, traces README): every one of the
        // 64 collective kernels (8 per rank) has one now.
        int sized = 0;
        for (const auto& rank : w.sessions()->traceSet()->ranks)
            for (const auto& c : rank.collectives)
                sized += c.bytes(rank.strings) > 0;
        QCOMPARE(sized, 64);
    }

    void chakraMeasuredPaneSaysNoMeasuredTimes() {
        SL_REQUIRE_TRACES();
        MainWindow w;
        w.show();
        load(w, {QString::fromStdString(sltest::tracePath("chakra/allreduce-8npus"))});
        QVERIFY(w.sessions()->traceSet());
        QCOMPARE(w.sessions()->traceSet()->ranks.size(), std::size_t(8));
        QVERIFY(part<TimelinePanes>(w)->measured()->note().contains("No measured times"));
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        QVERIFY(part<TimelinePanes>(w)->simulated()->data());
        // A Kineto trace afterwards: the note goes.
        load(w, {QString::fromStdString(sltest::samplePath("01-dp8-straggler"))});
        QVERIFY(part<TimelinePanes>(w)->measured()->note().isEmpty());
    }

    void detailsShowInputShapes() {
        SL_REQUIRE_TRACES();
        TraceLoader loader;
        std::shared_ptr<const TraceSet> set;
        connect(&loader, &TraceLoader::loaded, this,
                [&](std::shared_ptr<const TraceSet> s, QStringList) { set = s; });
        loader.start({QString::fromStdString(sltest::tracePath("dlrm-8rank-v100/kineto"))}, false);
        QVERIFY(loader.waitForFinished(120'000));
        QVERIFY(set);
        const Rank& rank = set->ranks[0];
        // The first kernel whose launch sits inside an aten:: op with Input Dims.
        EventId e;
        EventRef op;
        for (std::uint32_t t = 0; t < rank.tracks.size() && !e.valid(); ++t)
            for (std::uint32_t i = 0; rank.tracks[t].isGpu() && i < rank.tracks[t].events.size(); ++i)
                if (rank.tracks[t].events.kind[i] == EventKind::Kernel &&
                    (op = shapedOpOf(rank, EventRef{t, i})).valid()) {
                    e = EventId{0, EventRef{t, i}};
                    break;
                }
        QVERIFY(e.valid());
        const std::string_view a = rank.args(op);
        const QJsonObject args =
            QJsonDocument::fromJson(QByteArray(a.data(), static_cast<qsizetype>(a.size()))).object();
        const QString dims = QString::fromUtf8(
            QJsonDocument(args.value("Input Dims").toArray()).toJson(QJsonDocument::Compact));
        const QString html = eventDetailsHtml(*TimelineData::measured(set), nullptr, e);
        QVERIFY2(html.contains("Input shapes"), qPrintable(html));
        QVERIFY2(html.contains(dims.toHtmlEscaped()), qPrintable(dims + " not in " + html));
        QVERIFY(html.contains(
            QString::fromUtf8(rank.name(op).data(), static_cast<qsizetype>(rank.name(op).size()))));
    }
};

QTEST_MAIN(TestChakraGui)
#include "test_ChakraGui.moc"
