// Frame time of the timeline renderer on a large synthetic trace (about 10 million events), drawn
// into a 1600x1000 QImage at several zoom levels; of 64 ranks collapsed, expanded, compact and
// grouped, whole and zoomed; and of the added-ranks strip of a 16,384-rank job (dp.degree=16384 on
// the bundled 4-rank sample). Budget (docs/ARCHITECTURE.md): under 16 ms a frame.
//   bench_ui_render [--events=N] [benchmark flags]
#include "AddedRanksStrip.h"
#include "RowLayout.h"
#include "TimelineData.h"
#include "TimelineRenderer.h"
#include "TrackState.h"
#include "ViewController.h"

#include "../ui/SyntheticTrace.h"

#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <QApplication>
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

// Many ranks: 64 ranks x (1 thread + 2 streams), about 1.3 M events.
// range(0): 1 = every rank collapsed (each header row shows its summary strip), 0 = expanded,
// 2 = collapsed as compact 5 px strips (the default above 16 ranks: all 64 in the frame),
// 3 = compact and grouped by node (8 group rows). range(1): 0 = the whole trace in view, 1 = a
// 200 us window in its middle.
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
    const sl::TimeNs middle = m.data->start() + (m.data->end() - m.data->start()) / 2;
    const auto mapping = state.range(1) == 0
                             ? sl::ui::TimeMapping::fromWindow(m.data->start(), m.data->end(), image.width())
                             : sl::ui::TimeMapping::fromWindow(middle, middle + 200'000, image.width());
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
BENCHMARK(BM_RenderFrame64Ranks)
    ->Args({1, 0})
    ->Args({1, 1})
    ->Args({0, 0})
    ->Args({0, 1})
    ->Args({2, 0})
    ->Args({3, 0})
    ->Unit(benchmark::kMillisecond);

// 16,384 ranks: dp.degree=16384 on the bundled samples/02-dp4, every added rank simulated on its own;
// the strip under the simulated pane sorts them slowest first and draws the visible rows.
struct AddedRanksJob {
    std::shared_ptr<const sl::TraceSet> set; // the graph refers to it
    std::shared_ptr<const sl::SimResult> result;
    std::shared_ptr<const sl::ExecutionGraph> graph;
    double simulateSeconds = 0;
};

const AddedRanksJob& addedRanksJob() {
    static const AddedRanksJob* job = [] {
        auto* j = new AddedRanksJob;
        const std::string sample = std::string(SIGHTLINE_SOURCE_DIR) + "/samples/02-dp4";
        j->set = std::make_shared<const sl::TraceSet>(sl::loadTraceSet({sample}));
        j->graph = std::make_shared<const sl::ExecutionGraph>(sl::buildExecutionGraph(*j->set));
        sl::SimKnobs knobs;
        knobs.dpDegree = 16384;
        const auto t0 = std::chrono::steady_clock::now();
        j->result = std::make_shared<const sl::SimResult>(sl::simulate(*j->graph, knobs));
        j->simulateSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return j;
    }();
    return *job;
}

// range(0): 0 = a new result arrives (rows built and sorted, then one frame), 1 = a repaint only.
void BM_AddedRanksStrip16384(benchmark::State& state) {
    const AddedRanksJob& job = addedRanksJob();
    sl::ui::ViewController controller;
    sl::ui::AddedRanksStrip strip(&controller);
    strip.resize(1600, strip.sizeHint().height());
    strip.setSimulation(job.result, job.graph);
    QImage image(strip.size(), QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        if (state.range(0) == 0) strip.setSimulation(job.result, job.graph);
        strip.render(&image);
        benchmark::DoNotOptimize(image.constBits());
    }
    state.counters["added_ranks"] = strip.addedCount();
    state.counters["simulate_s"] = job.simulateSeconds;
}
BENCHMARK(BM_AddedRanksStrip16384)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

} // namespace

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--events=", 9) == 0) gEvents = std::atoll(argv[i] + 9);
    if (!std::getenv("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
