// XLA / TensorFlow profiler XSpace files (io/xspace): the real files of tests/data/formats counted
// against a walk of the same protobuf with the generated classes (not through the loader): ranks,
// GPU events per rank, host events, and every launch link equal to the file's correlation ids.
// Hand-made spaces for the step markers and a GPU-only file; hostile inputs.
#include "FormatsTestSupport.h"
#include "TestSupport.h"

#include "io/LoadError.h"
#include "io/xspace/XSpaceLoader.h"

#include <io/xspace/xplane.pb.h>

#include <map>
#include <set>

using namespace sl;
namespace xpb = sightline::xspace;

namespace {

std::string xspaceFile(const char* name) {
    return sltest::formatsFile(std::string("xspace/") + name);
}

// What the file says, walked here.
struct Walk {
    int gpuPlanesWithWork = 0;
    std::int64_t gpuEvents = 0;
    std::int64_t hostEvents = 0;
    std::multiset<std::int64_t> gpuCorrelations; // of events on "Stream #" lines (a launch may start two)
    std::set<std::int64_t> hostCorrelations;     // of host events
};

std::int64_t statId(const xpb::XPlane& plane, const std::string& name) {
    for (const auto& [id, m] : plane.stat_metadata())
        if (m.name() == name) return id;
    return -1;
}

std::int64_t correlationOf(const xpb::XEvent& e, std::int64_t id) {
    for (const auto& s : e.stats())
        if (s.metadata_id() == id)
            return s.has_uint64_value() ? static_cast<std::int64_t>(s.uint64_value()) : s.int64_value();
    return -1;
}

Walk walk(const std::string& path) {
    xpb::XSpace space;
    const std::string bytes = sltest::readWholeFile(path);
    if (!space.ParseFromString(bytes)) qFatal("cannot parse %s", path.c_str());
    Walk w;
    for (const auto& plane : space.planes()) {
        const std::int64_t corr = statId(plane, "correlation_id");
        if (plane.name().rfind("/device:GPU:", 0) == 0) {
            std::int64_t n = 0;
            for (const auto& line : plane.lines()) {
                if (line.name().rfind("Stream #", 0) != 0) continue;
                n += line.events_size();
                for (const auto& e : line.events())
                    if (std::int64_t c = correlationOf(e, corr); c >= 0) w.gpuCorrelations.insert(c);
            }
            w.gpuEvents += n;
            if (n > 0) ++w.gpuPlanesWithWork;
        } else if (plane.name() == "/host:CPU") {
            for (const auto& line : plane.lines()) {
                w.hostEvents += line.events_size();
                for (const auto& e : line.events())
                    if (std::int64_t c = correlationOf(e, corr); c >= 0) w.hostCorrelations.insert(c);
            }
        }
    }
    return w;
}

struct Loaded {
    std::int64_t gpuOps = 0, cpuEvents = 0, linked = 0, wrongLinks = 0;
};
Loaded summarize(const std::vector<Rank>& ranks) {
    Loaded l;
    for (const Rank& r : ranks)
        for (std::uint32_t ti = 0; ti < r.tracks.size(); ++ti) {
            const Track& t = r.tracks[ti];
            if (!t.isGpu()) {
                l.cpuEvents += static_cast<std::int64_t>(t.events.size());
                continue;
            }
            for (std::uint32_t i = 0; i < t.events.size(); ++i) {
                ++l.gpuOps;
                if (t.events.link[i] == kNoLink) continue;
                ++l.linked;
                const EventRef call = EventRef::unpack(t.events.link[i]);
                if (r.tracks[call.track].events.correlation[call.index] != t.events.correlation[i])
                    ++l.wrongLinks;
            }
        }
    return l;
}

// A space of one GPU plane (two kernels on stream 7) and, when withHost, a host plane with their
// launches and a step marker of step_num 3.
std::string handMadeSpace(bool withHost) {
    xpb::XSpace space;
    xpb::XPlane* gpu = space.add_planes();
    gpu->set_name("/device:GPU:0");
    (*gpu->mutable_stat_metadata())[1].set_name("correlation_id");
    (*gpu->mutable_stat_metadata())[2].set_name("kernel_details");
    (*gpu->mutable_event_metadata())[1].set_name("fusion_1");
    xpb::XLine* stream = gpu->add_lines();
    stream->set_id(7);
    stream->set_name("Stream #7(Kernel)");
    stream->set_timestamp_ns(1'000'000);
    for (int k = 0; k < 2; ++k) {
        xpb::XEvent* e = stream->add_events();
        e->set_metadata_id(1);
        e->set_offset_ps(100'000'000LL * (k + 1));
        e->set_duration_ps(50'000'000);
        xpb::XStat* c = e->add_stats();
        c->set_metadata_id(1);
        c->set_uint64_value(static_cast<std::uint64_t>(10 + k));
        xpb::XStat* d = e->add_stats();
        d->set_metadata_id(2);
        d->set_str_value(" grid:4,2,1 block:128,1,1");
    }
    xpb::XLine* derived = gpu->add_lines();
    derived->set_name("XLA Ops");
    derived->set_timestamp_ns(1'000'000);
    derived->add_events()->set_metadata_id(1);
    if (withHost) {
        xpb::XPlane* host = space.add_planes();
        host->set_name("/host:CPU");
        (*host->mutable_stat_metadata())[1].set_name("correlation_id");
        (*host->mutable_stat_metadata())[2].set_name("step_num");
        (*host->mutable_event_metadata())[1].set_name("cuLaunchKernel");
        (*host->mutable_event_metadata())[2].set_name("train");
        xpb::XLine* thread = host->add_lines();
        thread->set_id(42);
        thread->set_name("python3");
        thread->set_timestamp_ns(1'000'000);
        xpb::XEvent* step = thread->add_events();
        step->set_metadata_id(2);
        step->set_offset_ps(0);
        step->set_duration_ps(400'000'000);
        xpb::XStat* s = step->add_stats();
        s->set_metadata_id(2);
        s->set_int64_value(3);
        for (int k = 0; k < 2; ++k) {
            xpb::XEvent* e = thread->add_events();
            e->set_metadata_id(1);
            e->set_offset_ps(10'000'000LL * (k + 1));
            e->set_duration_ps(5'000'000);
            xpb::XStat* c = e->add_stats();
            c->set_metadata_id(1);
            c->set_uint64_value(static_cast<std::uint64_t>(10 + k));
        }
    }
    return space.SerializeAsString();
}

} // namespace

class TestXSpaceLoader : public QObject {
    Q_OBJECT
private slots:
    void detectsByContent() {
        const std::string te = sltest::readWholeFile(xspaceFile("jax_te_fused_attn.xplane.pb"));
        QVERIFY(looksLikeXSpace(te.substr(0, 64)));
        QVERIFY(looksLikeXSpace(handMadeSpace(true)));
        QVERIFY(!looksLikeXSpace(R"({"traceEvents":[]})"));
        QVERIFY(!looksLikeXSpace(""));
        QVERIFY(!looksLikeXSpace(std::string("\x0a\x05hello", 7)));
        QVERIFY(isXSpaceFile(xspaceFile("tf_gpu_multi_worker.xplane.pb.gz")));
        QVERIFY(!isXSpaceFile(sltest::samplePath("02-dp4/rank-0.json.gz")));
    }

    void realFiles_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("ranks");
        QTest::addColumn<bool>("everyLaunchLinked");
        QTest::newRow("jax te fused attn") << "jax_te_fused_attn.xplane.pb" << 1 << true;
        QTest::newRow("jax conv 8 x MI300X") << "jax_conv_minimal_08.xplane.pb" << 8 << true;
        // A thread that launches onto two GPUs goes with one of them: the other's launches stay unlinked.
        QTest::newRow("tf multi-worker") << "tf_gpu_multi_worker.xplane.pb.gz" << 3 << false;
    }
    void realFiles() {
        QFETCH(QString, file);
        QFETCH(int, ranks);
        QFETCH(bool, everyLaunchLinked);
        const std::string path = xspaceFile(qPrintable(file));
        const Walk w = walk(path);
        QCOMPARE(w.gpuPlanesWithWork, ranks);
        const std::vector<Rank> loaded = loadXSpaceFile(path);
        QCOMPARE(static_cast<int>(loaded.size()), ranks);
        for (const Rank& r : loaded)
            QCOMPARE(r.backend, std::string("xspace"));
        const Loaded l = summarize(loaded);
        QCOMPARE(l.gpuOps, w.gpuEvents);
        QCOMPARE(l.cpuEvents, w.hostEvents);
        QCOMPARE(l.wrongLinks, std::int64_t{0});
        // GPU events whose correlation id a host event carries: the launches the file records.
        std::int64_t launched = 0;
        for (std::int64_t c : w.gpuCorrelations)
            launched += static_cast<std::int64_t>(w.hostCorrelations.count(c));
        QVERIFY(launched > 0);
        if (everyLaunchLinked)
            QCOMPARE(l.linked, launched);
        else
            QVERIFY2(l.linked >= launched * 9 / 10,
                     qPrintable(QString("%1 of %2").arg(l.linked).arg(launched)));
    }

    void teFileAsTheIssueDescribes() {
        const std::vector<Rank> ranks = loadXSpaceFile(xspaceFile("jax_te_fused_attn.xplane.pb"));
        const Rank& r = ranks.front();
        QCOMPARE(r.eventsByKind[static_cast<std::size_t>(EventKind::Kernel)], std::int64_t{150});
        QCOMPARE(r.gpuOpsWithoutLaunch, std::int64_t{0});
        // XLA's stats become args: the HLO op and the grid of kernel_details (typed at load).
        bool hlo = false, grid = false;
        for (std::uint32_t ti = 0; ti < r.tracks.size(); ++ti)
            for (std::uint32_t i = 0; i < r.tracks[ti].events.size(); ++i) {
                hlo = hlo || r.args({ti, i}).find("\"hlo_op\"") != std::string_view::npos;
                if (const KernelLaunch* k = r.kernelLaunch({ti, i}); k && k->gridBlocks > 0) grid = true;
            }
        QVERIFY(hlo);
        QVERIFY(grid);
    }

    void stepMarkersAndLinks() {
        const std::vector<Rank> ranks = loadXSpaceBytes(handMadeSpace(true), "hand.xplane.pb", 2);
        QCOMPARE(ranks.size(), std::size_t{1});
        const Rank& r = ranks.front();
        QCOMPARE(r.rank, 2);
        QVERIFY(!r.warnings.has(Warn::GpuOnlyRank));
        bool step = false;
        for (const Track& t : r.tracks)
            for (std::size_t i = 0; i < t.events.size(); ++i)
                if (r.strings.str(t.events.name[i]) == "ProfilerStep#3") {
                    step = true;
                    QCOMPARE(t.events.kind[i], EventKind::UserAnnotation);
                    QCOMPARE(t.events.duration[i], TimeNs{400'000});
                }
        QVERIFY(step);
        const Loaded l = summarize(ranks);
        QCOMPARE(l.gpuOps, std::int64_t{2}); // the derived "XLA Ops" line is left out
        QCOMPARE(l.linked, std::int64_t{2});
        QCOMPARE(l.wrongLinks, std::int64_t{0});
        // Line start (ns) + offset (ps).
        for (const Track& t : r.tracks)
            if (t.isGpu()) QCOMPARE(t.events.start.front(), TimeNs{1'000'000 + 100'000});
    }

    void withoutHostPlaneLoadsGpuOnly() {
        const std::vector<Rank> ranks = loadXSpaceBytes(handMadeSpace(false), "gpu-only.xplane.pb");
        QVERIFY(ranks.front().warnings.has(Warn::GpuOnlyRank));
        QCOMPARE(ranks.front().gpuOpsWithoutLaunch, std::int64_t{2});
    }

    void hostileInputs_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("says");
        const QByteArray te =
            QByteArray::fromStdString(sltest::readWholeFile(xspaceFile("jax_te_fused_attn.xplane.pb")));
        QTest::newRow("truncated") << te.left(te.size() / 2) << "does not parse";
        QTest::newRow("garbage") << QByteArray(4096, '\x5a') << "not an XSpace";
        QTest::newRow("json") << QByteArray(R"({"traceEvents":[]})") << "not an XSpace";
        QTest::newRow("empty") << QByteArray() << "empty";
        xpb::XSpace cpuOnly;
        cpuOnly.add_planes()->set_name("/host:CPU");
        QTest::newRow("no gpu plane")
            << QByteArray::fromStdString(cpuOnly.SerializeAsString()) << "no GPU plane";
        xpb::XSpace other;
        other.add_planes()->set_name("/device:TPU:0");
        QTest::newRow("not xla") << QByteArray::fromStdString(other.SerializeAsString())
                                 << "not an XLA profiler XSpace";
    }
    void hostileInputs() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, says);
        sltest::verifyOneLineLoadError([&] { loadXSpaceBytes(bytes.toStdString(), "hostile.xplane.pb"); },
                                       "hostile.xplane.pb", says);
    }
};

QTEST_GUILESS_MAIN(TestXSpaceLoader)
#include "test_XSpaceLoader.moc"
