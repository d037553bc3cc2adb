// The "Embedding tables" dock (ui/panels/EmbeddingTablesPanel.h, docs/Embeddings.md, "In the GUI")
// on the bundled recommendation sample samples/05-rec-embeddings (4 ranks, 8 tables, the two heavy
// ones on rank 0): the dock shows for it and not for a transformer sample; its model passes
// QAbstractItemModelTester; each table is a segment of its rank's bars; "Move table ... to rank N"
// sets the current scenario's embedding.plan (a new scenario, as a knob edit from the baseline
// makes), the simulation re-runs with it and the panel then shows the table on rank N; the plan
// survives a session file round trip.
#include "EmbeddingTablesPanel.h"
#include "KnobPanel.h"
#include "MainWindow.h"
#include "Session.h"
#include "SessionController.h"
#include "TraceLoader.h"
#include "WindowParts.h"

#include "TestSupport.h"

#include "models/EmbeddingPlan.h"

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QMenu>
#include <QSignalSpy>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestEmbeddingTablesPanel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QCoreApplication::setOrganizationName("SightlineTest");
        QCoreApplication::setApplicationName("test_EmbeddingTablesPanel");
    }

    void moveATableReRuns() {
        MainWindow w;
        auto* panel = w.findChild<EmbeddingTablesPanel*>();
        QVERIFY(panel);
        QAbstractItemModelTester tester(panel->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy available(panel, &EmbeddingTablesPanel::availabilityChanged);
        QVERIFY(sltest::openSample(w, "05-rec-embeddings"));
        auto* dock = sltest::part<QDockWidget>(w, QStringLiteral("embeddingDock"));
        QVERIFY(!dock->isHidden());
        QVERIFY(available.count() >= 1);
        QCOMPARE(available.last().at(0).toBool(), true);

        // The traced plan: 8 tables inferred from the trace, two of them on rank 0.
        const EmbeddingPlanView v = panel->model()->view(); // a copy: the view changes on a move
        QCOMPARE(v.worldSize, 4);
        QVERIFY(v.traced);
        QCOMPARE(panel->model()->rowCount(), 8);
        QCOMPARE(static_cast<int>(v.lookupUs.size()), 4);
        // Rank 0 holds the heavy tables: the longest lookups and the most pooled bytes sent.
        for (int r = 1; r < 4; ++r) {
            QVERIFY(v.lookupUs[0] > v.lookupUs[static_cast<std::size_t>(r)]);
            QVERIFY(v.sentBytes[0] > v.sentBytes[static_cast<std::size_t>(r)]);
        }
        // A rank's segments add up to its bars.
        for (int r = 0; r < 4; ++r) {
            double us = 0, bytes = 0;
            for (const auto& s : v.shards)
                if (s.rank == r) {
                    us += s.lookupUs;
                    bytes += s.sentBytes;
                }
            QVERIFY(std::abs(us - v.lookupUs[static_cast<std::size_t>(r)]) < 1e-6 * (1 + us));
            QVERIFY(std::abs(bytes - v.sentBytes[static_cast<std::size_t>(r)]) < 1e-6 * (1 + bytes));
        }
        int heavy = -1; // rank 0's first table
        for (const auto& p : v.plan.placements)
            if (p.ranks == std::vector<int>{0}) {
                heavy = p.table;
                break;
            }
        QVERIFY(heavy >= 0);
        panel->bars()->resize(500, panel->bars()->sizeHint().height());
        const QRect seg = panel->bars()->segmentRect(heavy, 0);
        QVERIFY(!seg.isEmpty());
        QCOMPARE(panel->bars()->segmentAt(seg.center()), std::make_pair(heavy, 0));

        // The segment's menu: one move per other rank; moving the table to rank 3 sets the plan.
        QSignalSpy chosen(panel, &EmbeddingTablesPanel::planChosen);
        QMenu menu;
        panel->bars()->fillMenu(menu, heavy, 0);
        QCOMPARE(menu.actions().size(), 3);
        QVERIFY(menu.actions().front()->text().startsWith(QStringLiteral("Move table ")));
        QAction* toRank3 = menu.findChild<QAction*>(QStringLiteral("moveTo3"));
        QVERIFY(toRank3);
        QVERIFY(toRank3->text().endsWith(QStringLiteral("to rank 3")));
        const int scenariosBefore = sltest::scenarios(w)->list()->count();
        toRank3->trigger();
        QCOMPARE(chosen.count(), 1);
        const QString planJson = chosen.front().at(0).toString();
        const EmbeddingPlan plan = parseEmbeddingPlan(planJson.toStdString(), "moved", v.tables, 4);
        QCOMPARE(plan.placements[static_cast<std::size_t>(heavy)].ranks, std::vector<int>{3});
        // The scenario's knob, as an edit of the baseline: a new scenario holds it.
        QVERIFY(sltest::settleSimulations(w));
        QCOMPARE(sltest::scenarios(w)->list()->count(), scenariosBefore + 1);
        QCOMPARE(QString::fromStdString(sltest::scenarios(w)->currentKnobs().embeddingPlan), planJson);
        QCOMPARE(QString::fromStdString(w.sessions()->knobs()->knobs().embeddingPlan), planJson);
        // The re-run's view: the table on rank 3, rank 0 lighter, rank 3 heavier than traced.
        const EmbeddingPlanView& after = panel->model()->view();
        QVERIFY(!after.traced);
        QVERIFY2(after.error.empty(), after.error.c_str());
        QCOMPARE(panel->model()->data(panel->model()->index(heavy, EmbeddingTablesModel::Ranks)).toString(),
                 QStringLiteral("3"));
        QVERIFY(after.lookupUs[0] < v.lookupUs[0]);
        QVERIFY(after.lookupUs[3] > v.lookupUs[3]);
        QVERIFY(panel->summary().contains(QStringLiteral("the scenario's plan")));
        // The knob names only the moved table; moving it back leaves no plan (the replay).
        QCOMPARE(planJson, QStringLiteral("{\"tables\":{\"%1\":3}}").arg(panel->model()->tableName(heavy)));
        QCOMPARE(panel->model()->planWithTableOn(heavy, 0), QString());

        // The plan is saved with the scenario and read back.
        Session s;
        s.traces = {QString::fromStdString(sltest::samplePath("05-rec-embeddings"))};
        for (int i = 0; i < sltest::scenarios(w)->list()->count(); ++i)
            s.scenarios.push_back(sltest::scenarios(w)->list()->at(i));
        s.currentScenario = sltest::scenarios(w)->list()->current();
        Session back;
        QCOMPARE(sessionFromJson(sessionToJson(s), back), QString());
        QCOMPARE(back.scenarios.size(), s.scenarios.size());
        QCOMPARE(QString::fromStdString(
                     back.scenarios[static_cast<std::size_t>(back.currentScenario)].knobs.embeddingPlan),
                 planJson);
        QVERIFY(back.scenarios.back().knobs == s.scenarios.back().knobs);
    }

    // A transformer: its token embedding's kernels are lookups by name, but there is no lookup op
    // to read tables from; no dock, an empty model, no exception.
    void hiddenWithoutEmbeddings() {
        MainWindow w;
        QVERIFY(sltest::openSample(w, "02-dp4"));
        auto* panel = w.findChild<EmbeddingTablesPanel*>();
        QVERIFY(panel);
        QVERIFY(!panel->model()->hasEmbedding());
        QCOMPARE(panel->model()->rowCount(), 0);
        QVERIFY(sltest::part<QDockWidget>(w, QStringLiteral("embeddingDock"))->isHidden());
    }
};

QTEST_MAIN(TestEmbeddingTablesPanel)
#include "test_EmbeddingTablesPanel.moc"
