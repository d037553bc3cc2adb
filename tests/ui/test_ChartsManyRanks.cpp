// Charts that stay readable at 64+ ranks: past 16 ranks the per-rank charts show the fastest, the
// median and the slowest rank by measured iteration (and the slowest simulated one when a knob makes
// another rank the slowest), each named, instead of a solid block of 128 bars.
#include "ChartData.h"
#include "ChartsPanel.h"
#include "SimRunner.h"

#include "SyntheticTrace.h"
#include "TestSupport.h"
#include "io/KinetoLoader.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QValueAxis>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

namespace {
ChartData ranksWith(const std::vector<double>& measured, const std::vector<double>& simulated) {
    ChartData d;
    for (std::size_t i = 0; i < measured.size(); ++i) {
        ChartData::RankRow row;
        row.rank = static_cast<int>(i);
        row.measuredIterationMs = measured[i];
        row.simulatedIterationMs = simulated[i];
        d.ranks.push_back(row);
    }
    return d;
}

QStringList categoriesOf(QAbstractBarSeries* series) {
    for (QAbstractAxis* axis : series->attachedAxes())
        if (auto* c = qobject_cast<QBarCategoryAxis*>(axis)) return c->categories();
    return {};
}
} // namespace

class TestChartsManyRanks : public QObject {
    Q_OBJECT
private slots:
    void representatives() {
        std::vector<double> m(64), s(64);
        for (int i = 0; i < 64; ++i)
            m[static_cast<std::size_t>(i)] = s[static_cast<std::size_t>(i)] = 100.0 + (i * 37) % 64;
        // Rank 9 is the measured straggler; in the simulation rank 20 becomes the slowest.
        m[9] = 500;
        s[9] = 150;
        s[20] = 600;
        const ChartData d = ranksWith(m, s);
        const auto rows = chartRows(d);
        QCOMPARE(rows.size(), std::size_t{4});
        QCOMPARE(rowLabel(rows[0]), QStringLiteral("fastest r0"));
        QCOMPARE(rows[1].role, QStringLiteral("median"));
        QCOMPARE(rowLabel(rows[2]), QStringLiteral("slowest r9"));
        QCOMPARE(rowLabel(rows[3]), QStringLiteral("sim. slowest r20"));
        // Few ranks: all of them, unlabelled.
        const auto few = chartRows(ranksWith({3, 1, 2}, {3, 1, 2}));
        QCOMPARE(few.size(), std::size_t{3});
        QCOMPARE(rowLabel(few[1]), QStringLiteral("r1"));
    }

    // Eight ranks in a dock-sized panel: the rank axis keeps its labels ("r5 M", never "...") and a
    // bar's tooltip names its rank, part and value.
    void labelsAndTooltips() {
        const auto set =
            std::make_shared<const TraceSet>(loadTraceSet({sltest::samplePath("01-dp8-straggler")}));
        SimOutput out = SimRunner::runNow(set, {});
        ChartsPanel panel;
        panel.resize(320, 280);
        panel.setSimulation(out);
        for (QAbstractBarSeries* series : {static_cast<QAbstractBarSeries*>(panel.breakdownSeries()),
                                           static_cast<QAbstractBarSeries*>(panel.iterationSeries())})
            for (QAbstractAxis* axis : series->attachedAxes())
                if (auto* c = qobject_cast<QBarCategoryAxis*>(axis)) QVERIFY(!c->truncateLabels());
        const QStringList categories = categoriesOf(panel.breakdownSeries());
        const int r5 = static_cast<int>(categories.indexOf(QStringLiteral("r5 M")));
        QVERIFY(r5 >= 0);
        QBarSet* compute = panel.breakdownSeries()->barSets().front();
        QCOMPARE(panel.barTip(panel.breakdownSeries(), r5, compute),
                 QStringLiteral("r5 M, %1: %2 ms").arg(compute->label()).arg(compute->at(r5), 0, 'f', 3));
        QBarSet* measured = panel.iterationSeries()->barSets().front();
        QVERIFY(panel.barTip(panel.iterationSeries(), 0, measured).startsWith(QStringLiteral("r0 ")));
        QVERIFY(panel.barTip(panel.iterationSeries(), 99, measured).isEmpty());
    }

    // Tiny traces: the value axis has the decimals its range needs.
    void smallValuesReadable() {
        const auto set = sltest::makeSyntheticSet(2, 1, 40);
        SimOutput out = SimRunner::runNow(set, {});
        ChartsPanel panel;
        panel.setSimulation(out);
        QValueAxis* axis = nullptr;
        for (QAbstractAxis* a : panel.iterationSeries()->attachedAxes())
            if (auto* v = qobject_cast<QValueAxis*>(a)) axis = v;
        QVERIFY(axis);
        const double top = axis->max();
        QVERIFY(top > 0 && top < 1.0); // about 0.2 ms
        QVERIFY2(axis->labelFormat() != QStringLiteral("%.1f"), qPrintable(axis->labelFormat()));
        QCOMPARE(QString::asprintf(qPrintable(axis->labelFormat()), top / 2) == QStringLiteral("0.0"), false);
    }

    void panelAt64Ranks() {
        const auto set = sltest::makeSyntheticSet(64, 1, 40);
        const SimOutput out = SimRunner::runNow(set, {});
        ChartsPanel panel;
        panel.setSimulation(out);
        QCOMPARE(panel.data().ranks.size(), std::size_t{64});
        const QStringList breakdown = categoriesOf(panel.breakdownSeries());
        QVERIFY2(breakdown.size() <= 8, qPrintable(breakdown.join(QLatin1Char(','))));
        QVERIFY(breakdown.front().startsWith(QStringLiteral("fastest r")));
        QVERIFY(panel.breakdownSeries()->chart()->title().contains(QStringLiteral("64 ranks")));
        const QStringList iteration = categoriesOf(panel.iterationSeries());
        QVERIFY(iteration.size() <= 4);
        QVERIFY(iteration.back().contains(QStringLiteral("slowest r")));
    }
};

QTEST_MAIN(TestChartsManyRanks)
#include "test_ChartsManyRanks.moc"
