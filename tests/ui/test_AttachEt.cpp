// File > Attach Execution Traces (docs/Chakra.md, "Execution traces in the GUI"): EtAttach loads the
// open set again with the chosen ETs and the window shows it in place of the old one, re-simulated,
// with the user's knobs, scenarios and view kept; a bad ET file leaves a one-line error in the
// message bar and the open set as it was.
#include "TestSupport.h"

#include "DetailsPanel.h"
#include "EtAttach.h"
#include "EventText.h"
#include "KnobPanel.h"
#include "MainWindow.h"
#include "MessageBar.h"
#include "SessionDocument.h"
#include "SimRunner.h"
#include "TraceLoader.h"
#include "ViewController.h"
#include "WindowParts.h"

#include "analysis/BenchmarkExport.h"

#include <QAction>
#include <QDir>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace sl;
using namespace sl::ui;
using sltest::part;

namespace {

int sizedCollectives(const TraceSet& set) {
    int sized = 0;
    for (const auto& rank : set.ranks)
        for (const auto& c : rank.collectives)
            sized += c.bytes(rank.strings) > 0;
    return sized;
}

QStringList scenarioNames(const Session& s) {
    QStringList names;
    for (const auto& sc : s.scenarios)
        names << sc.name;
    return names;
}

} // namespace

class TestAttachEt : public QObject {
    Q_OBJECT
    static void settle(MainWindow& w) {
        for (int i = 0; i < 3; ++i) {
            QVERIFY(w.sessions()->simRunner()->waitForIdle(120'000));
            QTest::qWait(50);
        }
    }

private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_AttachEt");
    }

    void fileMenuHasTheActions() {
        MainWindow w;
        QStringList texts;
        for (QAction* menu : w.menuBar()->actions())
            if (menu->menu() && menu->text() == QStringLiteral("&File"))
                for (QAction* a : menu->menu()->actions())
                    texts << a->text();
        QVERIFY2(texts.contains(QStringLiteral("Attach E&xecution Traces...")), qPrintable(texts.join('|')));
        QVERIFY(texts.contains(QStringLiteral("Attach Execution Trace Fol&der...")));
        QVERIFY(w.findChild<EtAttach*>());
    }

    void dlrmFilesThenEtFolder() {
        SL_REQUIRE_TRACES();
        // The eight Kineto files, not their folder: no et/ beside is picked up on open.
        const QDir kineto(QString::fromStdString(sltest::tracePath("dlrm-8rank-v100/kineto")));
        QStringList files;
        for (const QString& f : kineto.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
            files << kineto.filePath(f);
        QCOMPARE(files.size(), 8);
        MainWindow w;
        w.show();
        w.sessions()->openTraces(files);
        QVERIFY(w.sessions()->loader()->waitForFinished(120'000));
        QVERIFY(w.sessions()->traceSet());
        // The Kineto files carry no collective sizes (old format, traces README): none of the 64
        // collective kernels (8 per rank) is sized before the ETs.
        QCOMPARE(sizedCollectives(*w.sessions()->traceSet()), 0);
        settle(w);

        // The user's state: a what-if scenario (an edit of the baseline) and a zoomed view.
        SimKnobs fast;
        fast.computeSpeedup = 1.5;
        w.sessions()->knobs()->setKnobs(fast);
        settle(w);
        const TimeNs start = w.sessions()->view()->windowStart(), end = w.sessions()->view()->windowEnd();
        const TimeNs zoomStart = start + (end - start) / 4, zoomEnd = start + (end - start) / 2;
        w.sessions()->view()->setWindow(zoomStart, zoomEnd);
        const Session before = w.sessions()->document()->currentSession();
        QCOMPARE(before.scenarios.size(), 2); // baseline + the what-if
        const auto old = w.sessions()->traceSet();

        auto* attach = w.findChild<EtAttach*>();
        QVERIFY(attach);
        attach->start(w.sessions()->traceSet(), w.sessions()->tracePaths(),
                      {QString::fromStdString(sltest::tracePath("dlrm-8rank-v100/et"))});
        QVERIFY(attach->waitForFinished(180'000));
        QVERIFY(w.sessions()->traceSet() != old);
        QCOMPARE(w.sessions()->traceSet()->ranks.size(), std::size_t(8));
        // Every collective kernel sized from the ETs, as on opening the kineto/ folder.
        QCOMPARE(sizedCollectives(*w.sessions()->traceSet()), 64);
        QCOMPARE(part<MessageBar>(w)->level(), MessageBar::Level::Info);
        QVERIFY2(part<MessageBar>(w)->text().contains(
                     QStringLiteral("execution traces: 8 file(s) linked to 8 rank(s) by file name")),
                 qPrintable(part<MessageBar>(w)->text()));
        QCOMPARE(w.sessions()->tracePaths(), files);

        // Kept: the scenarios, the knobs shown, the view.
        const Session after = w.sessions()->document()->currentSession();
        QCOMPARE(scenarioNames(after), scenarioNames(before));
        QCOMPARE(after.currentScenario, before.currentScenario);
        QCOMPARE(w.sessions()->knobs()->knobs().computeSpeedup, 1.5);
        QCOMPARE(w.sessions()->view()->windowStart(), zoomStart);
        QCOMPARE(w.sessions()->view()->windowEnd(), zoomEnd);

        // Re-simulated: the simulation shown is of the new set, with the knobs kept.
        settle(w);
        QVERIFY(w.sessions()->simulation().timeline);
        QCOMPARE(&w.sessions()->simulation().timeline->set(), w.sessions()->traceSet().get());

        // The details of a GPU op still name its operator's input shapes.
        const Rank& rank = w.sessions()->traceSet()->ranks[0];
        EventId e;
        for (std::uint32_t t = 0; t < rank.tracks.size() && !e.valid(); ++t)
            for (std::uint32_t i = 0; rank.tracks[t].isGpu() && i < rank.tracks[t].events.size(); ++i)
                if (rank.tracks[t].events.kind[i] == EventKind::Kernel &&
                    shapedOpOf(rank, EventRef{t, i}).valid()) {
                    e = EventId{0, EventRef{t, i}};
                    break;
                }
        QVERIFY(e.valid());
        QVERIFY(
            eventDetailsHtml(*w.sessions()->measured(), nullptr, e).contains(QStringLiteral("Input shapes")));
    }

    void badEtFileKeepsTheSet() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // Cut off inside its node list: not a readable execution trace.
        const std::string bad = sltest::writeFile(dir, QStringLiteral("rank0_et.json"),
                                                  QByteArray(R"({"schema":"1.0.1","nodes":[{"id":1,)"));
        MainWindow w;
        w.show();
        w.sessions()->openTraces({QString::fromStdString(sltest::samplePath("01-dp8-straggler"))});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        settle(w);
        const auto old = w.sessions()->traceSet();
        QVERIFY(old);
        const std::size_t warnings = old->warnings.size();

        auto* attach = w.findChild<EtAttach*>();
        attach->start(w.sessions()->traceSet(), w.sessions()->tracePaths(), {QString::fromStdString(bad)});
        QVERIFY(attach->waitForFinished(60'000));
        QCOMPARE(w.sessions()->traceSet(), old);
        QCOMPARE(w.sessions()->traceSet()->warnings.size(), warnings);
        QVERIFY(part<MessageBar>(w)->isVisible());
        QCOMPARE(part<MessageBar>(w)->level(), MessageBar::Level::Error);
        const QString text = part<MessageBar>(w)->text();
        QVERIFY2(text.contains(QStringLiteral("rank0_et.json")), qPrintable(text));
        QVERIFY2(!text.contains('\n'), qPrintable(text));

        // A path that does not exist: the same, before any reload.
        attach->start(w.sessions()->traceSet(), w.sessions()->tracePaths(),
                      {dir.filePath(QStringLiteral("missing"))});
        QVERIFY(attach->waitForFinished(60'000));
        QCOMPARE(w.sessions()->traceSet(), old);
        QVERIFY(part<MessageBar>(w)->text().contains(QStringLiteral("missing")));
    }

    void attachRefusedWithoutASet() {
        EtAttach attach;
        QString message;
        connect(&attach, &EtAttach::failed, this, [&](const QString& m) { message = m; });
        attach.start(nullptr, {}, {QStringLiteral("/tmp/x.json")});
        QVERIFY(message.contains(QStringLiteral("no trace set is open")));
        QVERIFY(!attach.busy());
    }
};

QTEST_MAIN(TestAttachEt)
#include "test_AttachEt.moc"
