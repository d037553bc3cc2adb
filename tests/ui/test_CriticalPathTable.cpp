// The critical-path table on the bundled sample samples/02-dp4 (always present): its per-kind totals
// equal the `critical_path.by_kind` that `sightline-cli simulate --json` prints, the grouped rows
// add up to the path's length, and N / Shift+N select the segments' events in order, expanding a
// collapsed rank to show them.
#include "CriticalPathTable.h"
#include "MainWindow.h"
#include "TraceLoader.h"
#include "TrackState.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include <QAction>
#include <QTableView>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace sl;
using namespace sl::ui;

class TestCriticalPathTable : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_CriticalPathTable");
    }

    void totalsMatchTheCliAndKeysWalkThePath() {
        const QString sample = QString::fromStdString(sltest::samplePath("02-dp4"));
        MainWindow w;
        w.show();
        w.sessions()->openTraces({sample});
        QVERIFY(w.sessions()->loader()->waitForFinished(60'000));
        QVERIFY(w.sessions()->simRunner()->waitForIdle(60'000));
        auto* table = w.findChild<CriticalPathTable*>();
        CriticalPathModel* m = table->model();
        QVERIFY(m->rowCount() > 2);

        const sltest::CliRun run =
            sltest::runCli({QStringLiteral("simulate"), sample, QStringLiteral("--json")});
        QCOMPARE(run.code, 0);
        const nlohmann::json cp = nlohmann::json::parse(run.out.toStdString())["critical_path"];
        double sum = 0;
        for (int l = 0; l < kPathLabelCount; ++l) {
            const std::string name(pathLabelName(static_cast<PathLabel>(l)));
            const double cliNs =
                cp["by_kind"].contains(name) ? cp["by_kind"][name]["us"].get<double>() * 1000 : 0.0;
            // The CLI prints microseconds with two decimals: within 5 ns.
            QVERIFY2(std::abs(static_cast<double>(m->totalOf(static_cast<PathLabel>(l))) - cliNs) <= 5.0,
                     qPrintable(QString::fromStdString(name)));
            sum += cliNs;
        }
        QVERIFY(std::abs(sum - cp["length_us"].get<double>() * 1000) <= 5.0 * (kPathLabelCount + 1));
        // CPU time between calls shows the op that ran then, as the CLI's segments say.
        const sltest::CliRun segs =
            sltest::runCli({QStringLiteral("critical-path"), sample, QStringLiteral("--json")});
        QCOMPARE(segs.code, 0);
        const nlohmann::json segments = nlohmann::json::parse(segs.out.toStdString())["segments"];
        QCOMPARE(static_cast<int>(segments.size()), m->rowCount());
        int ops = 0;
        for (int r = 0; r < m->rowCount(); ++r) {
            const std::string op = segments[static_cast<std::size_t>(r)]["op"].get<std::string>();
            if (op.empty()) continue;
            ++ops;
            QCOMPARE(m->data(m->index(r, CriticalPathModel::Op)).toString(), QString::fromStdString(op));
        }
        QVERIFY(ops > 0);
        // Grouped by op: the totals add up to the length again.
        m->setGrouped(true);
        TimeNs grouped = 0;
        for (int r = 0; r < m->rowCount(); ++r)
            grouped += m->groupTotal(r);
        QVERIFY(std::abs(static_cast<double>(grouped) - cp["length_us"].get<double>() * 1000) <= 5.0);
        QVERIFY(table->summary().contains(QStringLiteral("critical path")));
        QVERIFY(table->summary().contains(QStringLiteral("iteration")));

        // N selects the first segment with an event (the table leaves grouping for it), Shift+N
        // goes back; the event's rank is expanded to show it.
        auto* next = w.findChild<QAction*>(QStringLiteral("nextSegmentAction"));
        auto* previous = w.findChild<QAction*>(QStringLiteral("previousSegmentAction"));
        QVERIFY(next && previous);
        next->trigger();
        QVERIFY(!m->grouped());
        QCOMPARE(table->view()->currentIndex().row(), 0);
        if (m->eventOf(0).valid()) QCOMPARE(w.sessions()->selection()->event(), m->eventOf(0));
        // A later segment with an event: collapse its rank, step onto it with N, past it and back
        // with Shift+N; it is selected and its rank open again.
        int target = 1;
        while (target < m->rowCount() - 1 && !m->eventOf(target).valid())
            ++target;
        QVERIFY(target < m->rowCount() - 1);
        const EventId e = m->eventOf(target);
        while (table->view()->currentIndex().row() < target - 1)
            next->trigger();
        w.sessions()->tracks()->setRankExpanded(static_cast<std::size_t>(e.rank), false);
        next->trigger();
        next->trigger();
        previous->trigger();
        QCOMPARE(table->view()->currentIndex().row(), target);
        QCOMPARE(w.sessions()->selection()->event(), e);
        QVERIFY(w.sessions()->tracks()->rankExpanded(static_cast<std::size_t>(e.rank)));
    }
};

QTEST_MAIN(TestCriticalPathTable)
#include "test_CriticalPathTable.moc"
