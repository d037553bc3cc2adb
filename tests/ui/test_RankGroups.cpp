// Many ranks in the panes (docs/ManyRanks.md): ranks grouped by node, pipeline stage or replica
// under group rows that fold; compact collapsed rows (5 px) so 64 ranks fit a pane; the track
// filter; a group row's click folds it; the rank view round-trips through a session. On
// samples/04-dp2-tp2-pp2-2nodes (8 ranks, 2 nodes of 4 GPUs, dp2 x tp2 x pp2) and a synthetic
// 64-rank set.
#include "RankGroups.h"
#include "RankLabels.h"
#include "RowLayout.h"
#include "Session.h"
#include "TimelineData.h"
#include "TimelineRenderer.h"
#include "TimelineView.h"
#include "TrackState.h"
#include "ViewController.h"

#include "SyntheticTrace.h"
#include "TestSupport.h"
#include "io/KinetoLoader.h"
#include "models/CollectiveModel.h"

#include <QImage>
#include <QPainter>
#include <QtTest>

#include <map>
#include <set>

using namespace sl;
using namespace sl::ui;

namespace {
std::vector<const Row*> rowsOf(const RowLayout& layout, bool (Row::*kind)() const) {
    std::vector<const Row*> out;
    for (const Row& row : layout.rows())
        if ((row.*kind)()) out.push_back(&row);
    return out;
}
} // namespace

class TestRankGroups : public QObject {
    Q_OBJECT
    std::shared_ptr<TraceSet> set_;

private slots:
    void initTestCase() {
        set_ = std::make_shared<TraceSet>(loadTraceSet({sltest::samplePath("04-dp2-tp2-pp2-2nodes")}));
        QCOMPARE(set_->ranks.size(), std::size_t{8});
    }

    void groupsByNodeStageAndReplica() {
        TrackState state;
        state.reset(*set_);
        const int perNode = gpusPerNodeOf(*set_, -1);
        const RankLabels labels(*set_);
        const std::vector<RankPlace>& places = labels.coordinates();
        struct Case {
            RankGrouping grouping;
            std::function<int(std::size_t)> key; // computed here, independently of rankGroups
        };
        const std::vector<Case> cases{
            {RankGrouping::Node, [&](std::size_t r) { return set_->ranks[r].rank / perNode; }},
            {RankGrouping::Stage, [&](std::size_t r) { return places[r].pp; }},
            {RankGrouping::Replica, [&](std::size_t r) { return places[r].dp; }}};
        for (const Case& c : cases) {
            state.setGrouping(c.grouping);
            RowLayout layout;
            layout.build(*set_, state);
            std::map<int, std::set<std::size_t>> expected;
            for (std::size_t r = 0; r < set_->ranks.size(); ++r)
                expected[c.key(r)].insert(r);
            QCOMPARE(expected.size(), std::size_t{2}); // 2 nodes, 2 stages, 2 replicas
            const auto groups = rowsOf(layout, &Row::groupRow);
            QCOMPARE(groups.size(), expected.size());
            // Every rank under its group's row, each group's ranks together.
            int current = -1;
            std::map<int, std::set<std::size_t>> seen;
            for (const Row& row : layout.rows()) {
                if (row.groupRow()) {
                    current = row.group;
                    QCOMPARE(row.members, static_cast<int>(expected[row.group].size()));
                    QVERIFY(!groupLabel(c.grouping, row.group).isEmpty());
                } else if (row.header()) {
                    seen[current].insert(static_cast<std::size_t>(row.rank));
                }
            }
            QVERIFY2(seen == expected, qPrintable(groupingName(c.grouping)));
            // Folding a group takes its ranks out; its row stays.
            const int folded = groups.front()->group;
            state.setGroupCollapsed(folded, true);
            layout.build(*set_, state);
            QCOMPARE(rowsOf(layout, &Row::groupRow).size(), expected.size());
            for (const Row& row : layout.rows())
                QVERIFY(row.groupRow() || !expected[folded].count(static_cast<std::size_t>(row.rank)));
            QCOMPARE(rowsOf(layout, &Row::header).size(), set_->ranks.size() - expected[folded].size());
        }
        // No grouping: no group rows, ranks in order.
        state.setGrouping(RankGrouping::None);
        RowLayout layout;
        layout.build(*set_, state);
        QVERIFY(rowsOf(layout, &Row::groupRow).empty());
        QCOMPARE(rowsOf(layout, &Row::header).size(), set_->ranks.size());
    }

    void compactRowsFit64Ranks() {
        const auto set = sltest::makeSyntheticSet(64, 2, 500);
        const auto data = TimelineData::measured(set);
        TrackState state;
        state.reset(*set);
        // Above 16 ranks: collapsed, compact strips.
        QVERIFY(state.compactRows());
        QVERIFY(!state.rankExpanded(0));
        RowLayout layout;
        layout.build(*set, state);
        QCOMPARE(layout.rows().size(), std::size_t{64});
        for (const Row& row : layout.rows())
            QVERIFY(row.compact && row.height == RowLayout::kCompactHeight);
        QCOMPARE(layout.height(), 64 * RowLayout::kCompactHeight); // 320 px: a 1600x1000 pane
        // Each strip is painted (not an empty row): in its few pixels, not only the row colour.
        QImage image(800, layout.height(), QImage::Format_RGB32);
        QPainter p(&image);
        TimelineRenderer renderer;
        const TimeMapping m = TimeMapping::fromWindow(data->start(), data->end(), image.width());
        const RenderStats stats = renderer.paintEvents(p, *data, layout, m, image.size(), 0, {});
        p.end();
        QCOMPARE(stats.summaryLanes, 64 * 2);
        const QRgb header = palette::rankHeader().rgb();
        for (const Row& row : layout.rows()) {
            int painted = 0;
            for (int x = 0; x < image.width(); ++x)
                painted += image.pixel(x, row.y + 1) != header ? 1 : 0;
            QVERIFY2(painted > image.width() / 10, qPrintable(QString::number(row.rank)));
        }
        // Not compact: the 20 px header rows of before.
        state.setCompactRows(false);
        layout.build(*set, state);
        QCOMPARE(layout.height(), 64 * RowLayout::kHeaderHeight);
        // 8 ranks stay expanded and full size.
        TrackState small;
        small.reset(*set_);
        QVERIFY(!small.compactRows());
        QVERIFY(small.rankExpanded(0));
    }

    void filterKeepsMatchingRanksAndTracks() {
        TrackState state;
        state.reset(*set_);
        RowLayout layout;
        // A place: only the pp1 ranks, with all their tracks.
        state.setFilter(QStringLiteral("PP1"));
        layout.build(*set_, state);
        const RankLabels labels(*set_);
        const std::vector<RankPlace>& places = labels.coordinates();
        std::size_t pp1 = 0;
        for (const RankPlace& p : places)
            pp1 += p.pp == 1 ? 1 : 0;
        QCOMPARE(rowsOf(layout, &Row::header).size(), pp1);
        for (const Row& row : layout.rows())
            QCOMPARE(places[static_cast<std::size_t>(row.rank)].pp, 1);
        // A track name: every rank, only the tracks that match.
        const QString name = QString::fromStdString(set_->ranks[0].tracks[state.order(0).back()].name);
        state.setFilter(name);
        layout.build(*set_, state);
        QVERIFY(!rowsOf(layout, &Row::isTrack).empty());
        for (const Row* row : rowsOf(layout, &Row::isTrack))
            QVERIFY(QString::fromStdString(set_->ranks[static_cast<std::size_t>(row->rank)]
                                               .tracks[static_cast<std::size_t>(row->track)]
                                               .name)
                        .contains(name, Qt::CaseInsensitive));
        // Nothing matches: nothing laid out.
        state.setFilter(QStringLiteral("no such track"));
        layout.build(*set_, state);
        QVERIFY(layout.rows().empty());
        state.setFilter({});
        layout.build(*set_, state);
        QCOMPARE(rowsOf(layout, &Row::header).size(), set_->ranks.size());
    }

    void clickOnAGroupRowFoldsIt() {
        TrackState state;
        state.reset(*set_);
        state.setGrouping(RankGrouping::Node);
        ViewController view;
        SelectionModel selection;
        TimelineView pane(&view, &selection, &state);
        pane.resize(900, 600);
        pane.setData(TimelineData::measured(set_));
        const Row* group = rowsOf(pane.layout(), &Row::groupRow).front();
        const int key = group->group;
        QTest::mouseClick(&pane, Qt::LeftButton, {}, QPoint(20, group->y + group->height / 2));
        QVERIFY(state.groupCollapsed(key));
        QVERIFY(rowsOf(pane.layout(), &Row::header).size() < set_->ranks.size());
        QTest::mouseClick(&pane, Qt::LeftButton, {}, QPoint(20, group->y + group->height / 2));
        QVERIFY(!state.groupCollapsed(key));
        QCOMPARE(rowsOf(pane.layout(), &Row::header).size(), set_->ranks.size());
    }

    void rankViewInTheSession() {
        Session s;
        s.traces = {QStringLiteral("/x/rank-0.json")};
        s.hasRankView = true;
        s.rankView = {RankGrouping::Stage, {1, 0}, true, QStringLiteral("dp1")};
        Session back;
        QCOMPARE(sessionFromJson(sessionToJson(s), back), QString());
        QVERIFY(back.hasRankView);
        QCOMPARE(back.rankView.grouping, RankGrouping::Stage);
        QCOMPARE(back.rankView.collapsedGroups, (std::vector<int>{1, 0}));
        QVERIFY(back.rankView.compact);
        QCOMPARE(back.rankView.filter, QStringLiteral("dp1"));
        TrackState state;
        state.reset(*set_);
        state.setRankView(back.rankView);
        QCOMPARE(state.collapsedGroups(), (std::vector<int>{0, 1}));
        QVERIFY(state.groupCollapsed(1));
        // A bad grouping is a one-line error, not a silent default.
        QByteArray json = sessionToJson(s);
        json.replace("\"stage\"", "\"rack\"");
        QVERIFY(sessionFromJson(json, back).contains(QStringLiteral("rank_view")));
        // Older sessions have none.
        s.hasRankView = false;
        QCOMPARE(sessionFromJson(sessionToJson(s), back), QString());
        QVERIFY(!back.hasRankView);
    }
};

QTEST_MAIN(TestRankGroups)
#include "test_RankGroups.moc"
