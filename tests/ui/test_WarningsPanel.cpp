// The Warnings panel (WarningsPanel.h) shows each warning's line and carries its kind: the key as the
// row's data, the severity as its icon, and key, severity and the kind's meaning in its tooltip
// (docs/Diagnostics.md), so what a row is can be checked by key, never by its words.
#include "WarningsPanel.h"

#include "base/Diagnostics.h"

#include <QSignalSpy>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestWarningsPanel : public QObject {
    Q_OBJECT
private slots:
    void rowsCarryTheirKind() {
        WarningsPanel panel;
        QSignalSpy counted(&panel, &WarningsPanel::countChanged);
        Warnings load;
        load.add(Warn::RanksMissing, "rank 2 missing (ranks 0..2 expected)", 1);
        load.add(Warn::FileLeftOut, "bad.json: invalid JSON: left out");
        panel.setLoadWarnings(load);
        Warnings graph, sim;
        graph.add(Warn::CollectiveUnmatched, "3 collectives could not be matched", 3);
        sim.addForKnob("dp.scale", Warn::DpScaleNoCollectives, "dp.scale: nothing was re-timed");
        panel.setSimulationWarnings(graph, sim);
        QCOMPARE(panel.count(), 4);
        QVERIFY(counted.count() > 0);
        QCOMPARE(counted.last().at(0).toInt(), 4);

        QTreeWidgetItem* loading = panel.topLevelItem(0);
        QCOMPARE(loading->childCount(), 2);
        QCOMPARE(loading->child(0)->text(0), QStringLiteral("rank 2 missing (ranks 0..2 expected)"));
        QCOMPARE(loading->child(0)->data(0, Qt::UserRole).toString(), QStringLiteral("ranks_missing"));
        QCOMPARE(loading->child(1)->data(0, Qt::UserRole).toString(), QStringLiteral("load_file_left_out"));
        QVERIFY(loading->child(1)->toolTip(0).contains(QStringLiteral("load_file_left_out (data_loss)")));
        QVERIFY(!loading->child(0)->icon(0).isNull());
        QCOMPARE(panel.topLevelItem(1)->child(0)->data(0, Qt::UserRole).toString(),
                 QStringLiteral("collective_unmatched"));
        QCOMPARE(panel.topLevelItem(2)->child(0)->data(0, Qt::UserRole).toString(),
                 QStringLiteral("dp_scale_no_collectives"));
        // The tooltip says what the kind means (the table's message), after the line itself.
        const QString tip = panel.topLevelItem(2)->child(0)->toolTip(0);
        QVERIFY2(tip.startsWith(QStringLiteral("dp.scale: nothing was re-timed")), qPrintable(tip));
        QVERIFY2(tip.contains(QString::fromUtf8(warnInfo(Warn::DpScaleNoCollectives).message.data())),
                 qPrintable(tip));

        panel.clearAll();
        QCOMPARE(panel.count(), 0);
    }
};

QTEST_MAIN(TestWarningsPanel)
#include "test_WarningsPanel.moc"
