// Many ranks: a collapsed rank's header row shows its GPU streams folded into a summary strip (not an
// empty row), in the category colours, and in the critical-path colours when the path is shown.
// (Frame times at 64 ranks are measured in tests/benchmarks/bench_ui_render.cpp.)
#include "Palette.h"
#include "RowLayout.h"
#include "TimelineData.h"
#include "TimelineRenderer.h"
#include "TrackState.h"

#include "SyntheticTrace.h"

#include <QImage>
#include <QPainter>
#include <QtTest>

using namespace sl;
using namespace sl::ui;

class TestCollapsedSummary : public QObject {
    Q_OBJECT
private slots:
    void collapsedRanksShowASummary() {
        const auto set = sltest::makeSyntheticSet(64, 2, 2000);
        const auto data = TimelineData::measured(set);
        TrackState state;
        state.reset(*set);
        state.setAllRanksExpanded(false);
        RowLayout layout;
        layout.build(*set, state);
        QCOMPARE(layout.rows().size(), std::size_t{64}); // one header row per rank
        for (const Row& row : layout.rows())
            QVERIFY(row.header() && row.collapsed);
        QImage image(1400, layout.height(), QImage::Format_RGB32);
        QPainter p(&image);
        TimelineRenderer renderer;
        const TimeMapping m = TimeMapping::fromWindow(data->start(), data->end(), image.width());
        const RenderStats stats = renderer.paintEvents(p, *data, layout, m, image.size(), 0, {});
        QCOMPARE(stats.summaryLanes, 64 * 2);
        QVERIFY(stats.boxes > 64);
        QCOMPARE(stats.labels, 0); // a summary strip carries no names
        // Every header row has compute and communication pixels in its strip.
        const QRgb header = palette::rankHeader().rgb();
        for (const Row& row : layout.rows()) {
            int busy = 0, comm = 0;
            for (int x = 0; x < image.width(); x += 3) {
                const QRgb c = image.pixel(x, row.y + row.height / 2);
                busy += c != header ? 1 : 0;
                comm += QColor(c).hue() > 10 && QColor(c).hue() < 40 ? 1 : 0; // the orange of communication
            }
            QVERIFY2(busy > image.width() / 6, qPrintable(QString::number(busy)));
            QVERIFY(comm > 0);
        }
        // Expanded ranks draw no summary.
        state.setRankExpanded(3, true);
        layout.build(*set, state);
        const RenderStats one = renderer.paintEvents(p, *data, layout, m, image.size(), 0, {});
        QVERIFY(one.summaryLanes < 64 * 2);
    }
};

QTEST_MAIN(TestCollapsedSummary)
#include "test_CollapsedSummary.moc"
