// Frame time of the timeline renderer on a large synthetic trace (about 10 million events), drawn
// into a 1600x1000 QImage at several zoom levels. Budget (docs/ARCHITECTURE.md): under 16 ms a frame.
//   bench_ui_render [--events=N] [benchmark flags]
#include "RowLayout.h"
#include "TimelineData.h"
#include "TimelineRenderer.h"
#include "TrackState.h"

#include "../ui/SyntheticTrace.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

std::int64_t gEvents = 10'000'000;

struct Model {
    std::shared_ptr<const sl::TraceSet> set;
    std::shared_ptr<const sl::ui::TimelineData> data;
    sl::ui::TrackState state;
    sl::ui::RowLayout layout;
    double buildSeconds = 0;
};

Model& model() {
    static Model* m = [] {
        auto* mm = new Model;
        const int ranks = 8, streams = 3;
        // CPU tracks get about 2/3 of eventsPerTrack events.
        const auto perTrack =
            static_cast<std::int64_t>(static_cast<double>(gEvents) / (ranks * (streams + 2.0 / 3.0)));
        const auto t0 = std::chrono::steady_clock::now();
        mm->set = sltest::makeSyntheticSet(ranks, streams, perTrack);
        mm->data = sl::ui::TimelineData::measured(mm->set);
        mm->buildSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        mm->state.reset(*mm->set);
        for (std::size_t r = 0; r < mm->state.rankCount(); ++r)
            mm->state.setTrackNested(r, 0, true);
        mm->layout.build(*mm->set, mm->state);
        std::fprintf(stderr, "model: %lld events, built in %.2f s\n",
                     static_cast<long long>(mm->data->eventCount()), mm->buildSeconds);
        return mm;
    }();
    return *m;
}

// range(0): visible fraction of the trace, as 1 / range(0); range(1): vertical scroll in px.
void BM_RenderFrame(benchmark::State& state) {
    Model& m = model();
    QImage image(1600 - sl::ui::TimelineRenderer::kGutterWidth, 1000, QImage::Format_ARGB32_Premultiplied);
    sl::ui::TimelineRenderer renderer;
    const sl::TimeNs span = m.data->end() - m.data->start();
    const sl::TimeNs window = std::max<sl::TimeNs>(span / state.range(0), 1000);
    const sl::TimeNs start = m.data->start() + (span - window) / 2;
    const auto mapping = sl::ui::TimeMapping::fromWindow(start, start + window, image.width());
    sl::ui::RenderStats stats;
    for (auto _ : state) {
        QPainter p(&image);
        stats = renderer.paintEvents(p, *m.data, m.layout, mapping, image.size(),
                                     static_cast<int>(state.range(1)), {});
        p.end();
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["boxes"] = stats.boxes;
    state.counters["labels"] = stats.labels;
    state.counters["events"] = static_cast<double>(m.data->eventCount());
}
BENCHMARK(BM_RenderFrame)
    ->Args({1, 0})
    ->Args({10, 0})
    ->Args({1000, 0})
    ->Args({100000, 0})
    ->Args({1, 600})
    ->Unit(benchmark::kMillisecond);

// Many ranks: 64 ranks x (1 thread + 2 streams), about 1.3 M events, the whole trace in view.
// range(0): 1 = every rank collapsed (each header row shows its summary strip), 0 = expanded,
// 2 = collapsed as compact 5 px strips (the default above 16 ranks: all 64 in the frame),
// 3 = compact and grouped by node (8 group rows).
Model& manyRanks() {
    static Model* m = [] {
        auto* mm = new Model;
        mm->set = sltest::makeSyntheticSet(64, 2, 7000);
        mm->data = sl::ui::TimelineData::measured(mm->set);
        mm->state.reset(*mm->set);
        return mm;
    }();
    return *m;
}

void BM_RenderFrame64Ranks(benchmark::State& state) {
    Model& m = manyRanks();
    m.state.setAllRanksExpanded(state.range(0) == 0);
    m.state.setCompactRows(state.range(0) >= 2);
    m.state.setGrouping(state.range(0) == 3 ? sl::ui::RankGrouping::Node : sl::ui::RankGrouping::None);
    m.layout.build(*m.set, m.state);
    QImage image(1600 - sl::ui::TimelineRenderer::kGutterWidth, 1000, QImage::Format_ARGB32_Premultiplied);
    sl::ui::TimelineRenderer renderer;
    const auto mapping = sl::ui::TimeMapping::fromWindow(m.data->start(), m.data->end(), image.width());
    sl::ui::RenderStats stats;
    for (auto _ : state) {
        QPainter p(&image);
        stats = renderer.paintEvents(p, *m.data, m.layout, mapping, image.size(), 0, {});
        p.end();
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["boxes"] = stats.boxes;
    state.counters["summary_lanes"] = stats.summaryLanes;
    state.counters["events"] = static_cast<double>(m.data->eventCount());
    state.counters["rows"] = static_cast<double>(m.layout.rows().size());
}
BENCHMARK(BM_RenderFrame64Ranks)->Arg(1)->Arg(0)->Arg(2)->Arg(3)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--events=", 9) == 0) gEvents = std::atoll(argv[i] + 9);
    if (!std::getenv("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
