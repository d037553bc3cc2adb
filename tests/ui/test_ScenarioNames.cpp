// Scenarios named by what they are (docs/WhatIfWorkbench.md, "Scenarios"): a name made from the
// knobs follows them until the user renames the scenario, survives a session file, and a number
// typed into a knob field is committed once, when the field is done, never per keystroke (typing
// 4096 into dp.degree simulated and named "dp.degree = 4").
#include "KnobPanel.h"
#include "Scenario.h"
#include "ScenarioNames.h"
#include "Session.h"

#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <vector>

using namespace sl;
using namespace sl::ui;

namespace {
SimKnobs knobs(double compute, double comm = 1.0) {
    SimKnobs k;
    k.computeSpeedup = compute;
    k.commSpeedup = comm;
    return k;
}
} // namespace

class TestScenarioNames : public QObject {
    Q_OBJECT
private slots:
    // A name says the change as a person would: knobs set with --set syntax, the name expected.
    void phrasesSayTheChange_data() {
        QTest::addColumn<QStringList>("assignments");
        QTest::addColumn<QString>("name");
        QTest::newRow("gpu and network")
            << QStringList{"comm.speedup=2", "compute.speedup=2"} << "GPU 2x + network 2x";
        QTest::newRow("data parallel") << QStringList{"dp.degree=32"} << "dp x32";
        QTest::newRow("straggler pair")
            << QStringList{"straggler.rank=5", "straggler.slowdown=1.3"} << "rank 5 1.3x slower";
        QTest::newRow("jitter seed is said by the jitter")
            << QStringList{"jitter.pct=5", "jitter.seed=7"} << "jitter 5%";
        QTest::newRow("no overlap") << QStringList{"comm.overlap=false"} << "no overlap";
        QTest::newRow("per class") << QStringList{"compute.speedup.gemm=3"} << "gemm 3x";
        QTest::newRow("another GPU") << QStringList{"gpu.target=H100"} << "on H100";
        QTest::newRow("loader") << QStringList{"data.workers=4"} << "4 loader workers";
        QTest::newRow("the batch names no what-if") << QStringList{"batch.samples=256"} << "What-if";
        QTest::newRow("large numbers whole") << QStringList{"dp.degree=131072"} << "dp x131072";
    }
    void phrasesSayTheChange() {
        QFETCH(QStringList, assignments);
        QFETCH(QString, name);
        SimKnobs k;
        for (const QString& a : assignments)
            setKnobAssignment(k, a.toStdString());
        QCOMPARE(scenarioNameFor(k), name);
    }

    void nameFollowsTheKnobsUntilRenamed() {
        ScenarioList list;
        QSignalSpy listChanged(&list, &ScenarioList::listChanged);
        // An edit of the baseline starts a scenario named after it.
        const int i = list.setKnobs(0, knobs(2));
        QCOMPARE(i, 1);
        QCOMPARE(list.at(i).name, QStringLiteral("GPU 2x"));
        QVERIFY(list.at(i).nameFollowsKnobs);
        // Edited again: the name says the new knobs.
        list.setKnobs(i, knobs(2, 2));
        QCOMPARE(list.at(i).name, QStringLiteral("GPU 2x + network 2x"));
        // Back at the replay's values: a what-if of nothing yet.
        list.setKnobs(i, SimKnobs{});
        QCOMPARE(list.at(i).name, QStringLiteral("What-if"));
        // Renamed by the user: the name stays whatever the knobs become.
        QVERIFY(list.rename(i, QStringLiteral("Faster network")));
        QVERIFY(!list.at(i).nameFollowsKnobs);
        list.setKnobs(i, knobs(1, 4));
        QCOMPARE(list.at(i).name, QStringLiteral("Faster network"));
        // Add in the Scenarios dock: "What-if" until its knobs say more.
        const int added = list.addNamedByKnobs(SimKnobs{});
        QCOMPARE(list.at(added).name, QStringLiteral("What-if"));
        list.setKnobs(added, knobs(1, 2));
        QCOMPARE(list.at(added).name, QStringLiteral("network 2x"));
        // Two scenarios with the same knobs: the second name is made unique, never shared.
        const int twin = list.addNamedByKnobs(SimKnobs{});
        list.setKnobs(twin, knobs(1, 2));
        QCOMPARE(list.at(twin).name, QStringLiteral("network 2x 2"));
        // ... and keeps its own name on an edit that leaves it as it is.
        list.setKnobs(added, knobs(1, 2));
        QCOMPARE(list.at(added).name, QStringLiteral("network 2x"));
        // A copy is "... copy" until its knobs change, then named by them; a renamed one's copy keeps
        // its name.
        const int copy = list.duplicate(added);
        QCOMPARE(list.at(copy).name, QStringLiteral("network 2x copy"));
        list.setKnobs(copy, knobs(2, 2));
        QCOMPARE(list.at(copy).name, QStringLiteral("GPU 2x + network 2x"));
        const int mine = list.duplicate(i); // "Faster network", renamed above
        list.setKnobs(mine, knobs(3));
        QCOMPARE(list.at(mine).name, QStringLiteral("Faster network copy"));
        QVERIFY(listChanged.count() > 0);
    }

    void followingNamesSurviveTheSessionFile() {
        Session s;
        s.traces = {QStringLiteral("/runs/a.json")};
        s.scenarios = {{QStringLiteral("Baseline"), {}, false},
                       {QStringLiteral("compute.speedup = 2"), knobs(2), true},
                       {QStringLiteral("Mine"), knobs(3), false}};
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("names.sightline.json"));
        QCOMPARE(writeSessionFile(path, s), QString());
        Session back;
        QCOMPARE(readSessionFile(path, back), QString());
        QCOMPARE(back.scenarios.size(), std::size_t{3});
        QVERIFY(back.scenarios[1].nameFollowsKnobs);
        QVERIFY(!back.scenarios[2].nameFollowsKnobs);
    }

    void typedNumberCommitsWhenTheFieldIsDone() {
        KnobPanel panel;
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        auto* degree = qobject_cast<QSpinBox*>(panel.field(QStringLiteral("dp.degree")));
        QVERIFY(degree);
        QSignalSpy changed(&panel, &KnobPanel::changed);
        degree->setFocus();
        degree->selectAll();
        QTest::keyClicks(degree, QStringLiteral("4096"));
        QCOMPARE(changed.count(), 0); // no edit per keystroke
        QTest::keyClick(degree, Qt::Key_Return);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(panel.knobs().dpDegree, 4096);
        // A pause of typing commits too.
        degree->selectAll();
        QTest::keyClicks(degree, QStringLiteral("64"));
        QCOMPARE(changed.count(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, 5000);
        QCOMPARE(panel.knobs().dpDegree, 64);
    }
};

QTEST_MAIN(TestScenarioNames)
#include "test_ScenarioNames.moc"
