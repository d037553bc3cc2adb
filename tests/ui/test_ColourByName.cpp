// Colour by name: an event's shade comes from its name's text, not from the id a rank interned it as,
// so the same kernel has the same colour on every rank and in both panes.
#include "Palette.h"
#include "RangeStats.h"
#include "RowLayout.h"
#include "TimelineData.h"
#include "TimelineRenderer.h"
#include "TrackState.h"

#include "SyntheticTrace.h"

#include <QImage>
#include <QPainter>
#include <QtTest>

#include <set>

using namespace sl;
using namespace sl::ui;

namespace {

const char* kNames[] = {"void gemm_kernel<float>(float*)",
                        "elementwise_add",
                        "softmax_fwd",
                        "layer_norm",
                        "fused_dropout",
                        "embedding_bag_fwd"};
constexpr int kNameCount = 6;

// Ranks that intern the same kernel names in different orders (rank r starts the list at r), each
// with one GPU stream that runs every name once, 10 us apart.
std::shared_ptr<const TraceSet> shuffledNames(int ranks) {
    auto set = std::make_shared<TraceSet>();
    for (int r = 0; r < ranks; ++r) {
        Rank rank;
        rank.rank = r;
        rank.strings.intern("padding " + std::to_string(r)); // shifts every id per rank
        StringId ids[kNameCount];
        for (int k = 0; k < kNameCount; ++k)
            ids[(k + r) % kNameCount] = rank.strings.intern(kNames[(k + r) % kNameCount]);
        Track gpu;
        gpu.kind = TrackKind::GpuStream;
        gpu.pid = r;
        gpu.tid = 7;
        gpu.name = "stream 7";
        for (int k = 0; k < kNameCount; ++k)
            sltest::pushEvent(gpu.events, 1'000'000 + k * 10'000, 8'000, ids[k], EventKind::Kernel, 0, -1);
        rank.tracks.push_back(std::move(gpu));
        set->ranks.push_back(std::move(rank));
    }
    return set;
}

// The colour at the middle of event (rank, 0, k) as drawn by the renderer.
QRgb drawnColour(const TimelineData& data, const RowLayout& layout, const TimeMapping& m, const QImage& image,
                 int rank, int k) {
    const EventId e{rank, {0, static_cast<std::uint32_t>(k)}};
    const QRectF r = TimelineRenderer::eventRect(data, layout, m, e);
    // Near the left edge: the label starts 3 px in.
    return image.pixel(static_cast<int>(r.left()) + 1, static_cast<int>(r.top()) + 3);
}

} // namespace

class TestColourByName : public QObject {
    Q_OBJECT
private slots:
    void stableHash() {
        for (const char* name : kNames) {
            const int s = palette::shadeOfName(name);
            QVERIFY(s >= 0 && s < palette::kShades);
            QCOMPARE(palette::shadeOfName(std::string(name)), s); // the text decides, not the pointer
        }
        // Names spread over the shades (not all one colour).
        std::set<int> used;
        for (int i = 0; i < 64; ++i)
            used.insert(palette::shadeOfName("kernel_" + std::to_string(i)));
        QCOMPARE(static_cast<int>(used.size()), palette::kShades);
        // Fixed values: a change of hash would recolour every user's traces between versions. Computed
        // outside the program (Python: 32-bit FNV-1a over the UTF-8 bytes, then h ^= h >> 16,
        // h *= 0x7feb352d, h ^= h >> 15, all mod 2^32; shade = h % 4).
        QCOMPARE(palette::shadeOfName(std::string_view()), 0);
        QCOMPARE(palette::shadeOfName(""), 0);
        QCOMPARE(palette::shadeOfName("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)"), 1);
        QCOMPARE(palette::shadeOfName("aten::mm"), 1);
        QCOMPARE(palette::shadeOfName("cudaLaunchKernel"), 2);
        QCOMPARE(palette::shadeOfName("aten::add"), 3);
    }

    void sameShadeOnEveryRank() {
        const auto set = shuffledNames(4);
        const auto data = TimelineData::measured(set);
        for (int k = 0; k < kNameCount; ++k) {
            const int expected = palette::shadeOfName(kNames[k]);
            for (std::size_t r = 0; r < set->ranks.size(); ++r) {
                const StringId id = set->ranks[r].tracks[0].events.name[static_cast<std::size_t>(k)];
                QCOMPARE(set->ranks[r].strings.str(id), std::string_view(kNames[k]));
                QCOMPARE(int(data->ranks()[r].shade[id]), expected);
            }
        }
        // The ids do differ between ranks (otherwise this test would prove nothing).
        QVERIFY(set->ranks[0].tracks[0].events.name[0] != set->ranks[1].tracks[0].events.name[0]);
    }

    // Drawn pixels: the same name has the same colour on every rank, in the measured and in a
    // simulated timeline (other times, same names).
    void sameDrawnColourAcrossRanksAndPanes() {
        const auto set = shuffledNames(4);
        const auto measured = TimelineData::measured(set);
        // A "simulated" timeline: every event 2x shorter and shifted.
        std::vector<std::vector<TimeNs>> starts, durations;
        for (const Rank& rank : set->ranks) {
            const EventColumns& ev = rank.tracks[0].events;
            starts.emplace_back();
            durations.emplace_back();
            for (std::size_t i = 0; i < ev.size(); ++i) {
                starts.back().push_back(ev.start[i] + 3'000);
                durations.back().push_back(ev.duration[i] / 2);
            }
        }
        const auto simulated = TimelineData::build(set, [&](std::size_t r, std::size_t) {
            return TimeColumns{starts[r].data(), durations[r].data()};
        });
        TrackState state;
        state.reset(*set);
        RowLayout layout;
        layout.build(*set, state);
        const TimeMapping m = TimeMapping::fromWindow(measured->start(), measured->end(), 1200);
        auto render = [&](const TimelineData& data) {
            QImage image(1200, layout.height() + 10, QImage::Format_RGB32);
            QPainter p(&image);
            TimelineRenderer renderer;
            renderer.paintEvents(p, data, layout, m, image.size(), 0, {});
            return image;
        };
        const QImage mi = render(*measured);
        const QImage si = render(*simulated);
        std::set<QRgb> distinct;
        for (int k = 0; k < kNameCount; ++k) {
            const QRgb c = drawnColour(*measured, layout, m, mi, 0, k);
            QCOMPARE(c, palette::color(Category::Compute, palette::shadeOfName(kNames[k])).rgb());
            distinct.insert(c);
            for (int r = 1; r < 4; ++r)
                QCOMPARE(drawnColour(*measured, layout, m, mi, r, k), c);
            for (int r = 0; r < 4; ++r)
                QCOMPARE(drawnColour(*simulated, layout, m, si, r, k), c);
        }
        QVERIFY(distinct.size() > 1);
    }

    // The range statistics' swatch is the timeline's colour of that name.
    void rangeStatsCarryTheShade() {
        const auto set = shuffledNames(3);
        const auto data = TimelineData::measured(set);
        const auto stats = computeRangeStats(*data, nullptr, data->start(), data->end());
        QCOMPARE(static_cast<int>(stats.size()), kNameCount);
        for (const NameStats& s : stats)
            QCOMPARE(s.shade, palette::shadeOfName(s.name.toStdString()));
    }
};

QTEST_MAIN(TestColourByName)
#include "test_ColourByName.moc"
