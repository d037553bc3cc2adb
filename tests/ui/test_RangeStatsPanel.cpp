// The Range statistics dock on its own: a range over a bundled sample, counted against the raw files;
// hidden tracks left out; the simulated columns once a simulation is given; CSV export and its errors.
#include "RangeStatsModel.h"
#include "RangeStatsPanel.h"
#include "RangeStatsWorker.h"
#include "Selection.h"
#include "SimRunner.h"
#include "TrackState.h"
#include "ViewController.h"
#include "io/KinetoLoader.h"

#include "SampleCounts.h"
#include "TestSupport.h"

#include <QFile>
#include <QHeaderView>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

namespace {
std::string sample() {
    return sltest::samplePath("02-dp4");
}
bool complete(const nlohmann::json& e) {
    return e.value("ph", "") == "X";
}
// The panel with the models it reads, over one set.
struct Rig {
    SelectionModel selection;
    TrackState tracks;
    ViewController view;
    RangeStatsPanel panel{&selection, &tracks, &view};
    explicit Rig(const TraceSet& set) { tracks.reset(set); }
};
std::int64_t measuredCount(const RangeStatsModel& model) {
    std::int64_t n = 0;
    for (const auto& r : model.table().rows)
        n += r.measured.count;
    return n;
}
} // namespace

class TestRangeStatsPanel : public QObject {
    Q_OBJECT
    std::shared_ptr<const TraceSet> set_;
    std::shared_ptr<const TimelineData> measured_;

private slots:
    void initTestCase() {
        set_ = std::make_shared<const TraceSet>(loadTraceSet({sample()}));
        measured_ = TimelineData::measured(set_);
    }

    void rangeOverTheWholeTrace() {
        Rig rig(*set_);
        SelectionModel& selection = rig.selection;
        RangeStatsPanel& panel = rig.panel;
        QSignalSpy front(&panel, &RangeStatsPanel::rangeSelected);
        // No set yet: a range computes nothing.
        selection.setRange(0, 1000);
        QCOMPARE(front.count(), 0);
        QCOMPARE(panel.model()->rowCount(), 0);
        selection.clearRange();

        panel.setTimelines(measured_, nullptr);
        selection.setRange(measured_->start(), measured_->end());
        QCOMPARE(front.count(), 1);
        QVERIFY(panel.worker()->waitForIdle(60'000));
        // Every complete event of the raw files, once.
        const std::int64_t all = sltest::countRawEvents(sample(), complete);
        QCOMPARE(measuredCount(*panel.model()), all);
        QVERIFY(panel.headline().contains(QStringLiteral(": %1 events, ").arg(all)));
        QVERIFY(panel.headline().endsWith(QStringLiteral("(simulated columns after the simulation)")));
        QVERIFY(panel.table()->isColumnHidden(RangeStatsModel::SimCount));
        QVERIFY(panel.findChild<QPushButton*>(QStringLiteral("rangeExport"))->isEnabled());
        // At a docked width the numbers fit beside the name (they took 100 px each, and a 200 px
        // dock showed Name and Kind only); the full name is the tooltip.
        panel.resize(380, 300);
        panel.show();
        QCoreApplication::processEvents();
        const QHeaderView* header = panel.table()->horizontalHeader();
        int numbers = 0;
        for (int c : {RangeStatsModel::Count, RangeStatsModel::Total, RangeStatsModel::Share})
            numbers += header->sectionSize(c);
        QVERIFY2(numbers < 3 * 90, qPrintable(QString::number(numbers)));
        QVERIFY(header->sectionSize(RangeStatsModel::Name) >= 60);
        QCOMPARE(panel.model()->index(0, RangeStatsModel::Name).data(Qt::ToolTipRole),
                 panel.model()->index(0, RangeStatsModel::Name).data());
        panel.hide();

        // Rank 0's tracks hidden: its file's events leave the table (the next range recomputes).
        for (std::size_t k = 0; k < set_->ranks[0].tracks.size(); ++k)
            rig.tracks.setTrackHidden(0, k, true);
        selection.setRange(measured_->start(), measured_->end() - 1);
        selection.setRange(measured_->start(), measured_->end());
        QVERIFY(panel.worker()->waitForIdle(60'000));
        std::int64_t rank0 = 0;
        const std::vector<nlohmann::json> files = sltest::rawRankEvents(sample());
        for (const auto& e : files.front())
            rank0 += complete(e);
        QVERIFY(rank0 > 0);
        QCOMPARE(measuredCount(*panel.model()), all - rank0);

        // No set: cleared, nothing to export.
        panel.setTimelines(nullptr, nullptr);
        QCOMPARE(panel.model()->rowCount(), 0);
        QVERIFY(!panel.findChild<QPushButton*>(QStringLiteral("rangeExport"))->isEnabled());
    }

    void simulatedColumns() {
        Rig rig(*set_);
        SelectionModel& selection = rig.selection;
        RangeStatsPanel& panel = rig.panel;
        panel.setTimelines(measured_, nullptr);
        selection.setRange(measured_->start(), measured_->end());
        QVERIFY(panel.worker()->waitForIdle(60'000));
        QVERIFY(!panel.model()->table().hasSimulated);
        // A simulation arrives while the range is selected: the table gains its columns.
        const SimOutput sim = SimRunner::runNow(set_, SimKnobs{});
        panel.setTimelines(measured_, sim.timeline);
        QVERIFY(panel.worker()->waitForIdle(60'000));
        QVERIFY(panel.model()->table().hasSimulated);
        QVERIFY(!panel.table()->isColumnHidden(RangeStatsModel::SimCount));
        QVERIFY(!panel.headline().contains(QStringLiteral("after the simulation")));
    }

    void exportCsv() {
        QTemporaryDir dir;
        Rig rig(*set_);
        SelectionModel& selection = rig.selection;
        RangeStatsPanel& panel = rig.panel;
        QSignalSpy failed(&panel, &RangeStatsPanel::failed);
        const QString path = dir.filePath(QStringLiteral("range.csv"));
        QCOMPARE(panel.exportCsv(path), QStringLiteral("No range selected"));
        QCOMPARE(failed.count(), 1);
        panel.setTimelines(measured_, nullptr);
        selection.setRange(measured_->start(), measured_->end());
        QVERIFY(panel.worker()->waitForIdle(60'000));
        QCOMPARE(panel.exportCsv(path), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly | QIODevice::Text));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        // The range (as selected, 4 ranks), the column header, then one line per name.
        QCOMPARE(lines.size(), panel.model()->rowCount() + 2);
        QCOMPARE(lines[0], QStringLiteral("# range_start_ns,%1,range_end_ns,%2,ranks,4")
                               .arg(measured_->start())
                               .arg(measured_->end()));
        QVERIFY(lines[1].startsWith(QLatin1String("name,kind,measured_count,")));
        // An unwritable path names the file.
        const QString bad = dir.filePath(QStringLiteral("no/such/dir/range.csv"));
        QVERIFY(panel.exportCsv(bad).contains(bad));
        QCOMPARE(failed.count(), 2);
    }
};

QTEST_MAIN(TestRangeStatsPanel)
#include "test_RangeStatsPanel.moc"
