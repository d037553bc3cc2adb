// Item models checked with QAbstractItemModelTester: the track tree and the range statistics.
#include "RangeStatsModel.h"
#include "TrackState.h"
#include "TrackTreeModel.h"

#include "SyntheticTrace.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestModels : public QObject {
    Q_OBJECT
private slots:
    void trackTree() {
        auto set = sltest::makeSyntheticSet(3, 2, 10);
        TrackState state;
        TrackTreeModel model(&state);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        state.reset(*set);
        model.setTraceSet(set);
        QCOMPARE(model.rowCount(), 3);
        const QModelIndex rank1 = model.index(1, 0);
        QCOMPARE(model.rowCount(rank1), 3);
        QVERIFY(model.data(rank1).toString().startsWith(QStringLiteral("Rank 1")));
        // CPU thread first, then streams.
        QCOMPARE(model.data(model.index(0, 0, rank1)).toString(), QStringLiteral("thread 1 (python)"));
        // Hide a track through the check box.
        const QModelIndex stream = model.index(2, 0, rank1);
        QVERIFY(model.setData(stream, Qt::Unchecked, Qt::CheckStateRole));
        const auto [r, t] = model.location(stream);
        QVERIFY(state.trackHidden(static_cast<std::size_t>(r), static_cast<std::size_t>(t)));
        QCOMPARE(model.data(rank1, Qt::CheckStateRole).toInt(), int(Qt::PartiallyChecked));
        QVERIFY(model.setData(rank1, Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(model.data(rank1, Qt::CheckStateRole).toInt(), int(Qt::Unchecked));
        model.setTraceSet(sltest::makeSyntheticSet(1, 1, 5));
    }
    void rangeStats() {
        RangeStatsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        std::vector<NameStats> stats(3);
        stats[0] = {QStringLiteral("b"), Category::Compute, 2, 3000, 2000};
        stats[1] = {QStringLiteral("a"), Category::Communication, 1, 9000, 9000};
        stats[2] = {QStringLiteral("c"), Category::CpuOp, 5, 500, 200};
        model.setTable(mergeRangeStats(stats, {}, false, 0, 100'000, 1));
        QCOMPARE(model.rowCount(), 3);
        QCOMPARE(model.columnCount(), int(RangeStatsModel::ColumnCount));
        model.sort(RangeStatsModel::Total, Qt::DescendingOrder);
        QCOMPARE(model.data(model.index(0, RangeStatsModel::Name)).toString(), QStringLiteral("a"));
        QCOMPARE(model.data(model.index(0, RangeStatsModel::Total)).toString(), QStringLiteral("9.00 us"));
        QCOMPARE(model.data(model.index(0, RangeStatsModel::Share)).toString(), QStringLiteral("9.0%"));
        model.sort(RangeStatsModel::Name, Qt::AscendingOrder);
        QCOMPARE(model.data(model.index(2, RangeStatsModel::Name)).toString(), QStringLiteral("c"));
        QCOMPARE(model.data(model.index(2, RangeStatsModel::Mean), Qt::UserRole).toDouble(), 100.0);
        model.setTable({});
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestModels)
#include "test_Models.moc"
