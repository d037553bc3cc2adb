// Chakra .et import (docs/Chakra.md): the reader on the real files of ../shared/traces/chakra (counts
// derived independently by decoding the wire format with a separate script), on hand-encoded bytes
// (encoder below, no protobuf library), the graph and the replay of a small hand-timed graph, and
// the writer's round trip.
#include "TestSupport.h"

#include "graph/ChakraGraph.h"
#include "graph/ExecutionGraph.h"
#include "io/KinetoLoader.h"
#include "io/LoadError.h"
#include "io/chakra/ChakraReader.h"
#include "io/chakra/ChakraTraceSet.h"
#include "sim/Knobs.h"
#include "sim/Simulator.h"

#include <QTemporaryDir>
#include <QTest>

#include <string>

using namespace sl;

namespace {

// A hand encoder of the protobuf wire format (independent of the reader under test).
std::string varint(std::uint64_t n) {
    std::string out;
    do {
        unsigned char b = n & 0x7f;
        n >>= 7;
        out.push_back(static_cast<char>(b | (n ? 0x80 : 0)));
    } while (n);
    return out;
}
std::string fVarint(int field, std::uint64_t n) {
    return varint(static_cast<std::uint64_t>(field) << 3) + varint(n);
}
std::string fBytes(int field, const std::string& b) {
    return varint((static_cast<std::uint64_t>(field) << 3) | 2) + varint(b.size()) + b;
}
std::string packed(std::initializer_list<std::uint64_t> v) {
    std::string s;
    for (auto x : v)
        s += varint(x);
    return s;
}
std::string attrInt(const std::string& name, std::uint64_t v) {
    return fBytes(10, fBytes(1, name) + fVarint(9, v));
}
std::string attrBool(const std::string& name, bool v) {
    return fBytes(10, fBytes(1, name) + fVarint(27, v ? 1 : 0));
}
// Node{id=1, name=2, type=3, ctrl_deps=4, data_deps=5, duration_micros=7, attr=10}.
std::string node(std::uint64_t id, const std::string& name, int type,
                 std::initializer_list<std::uint64_t> data, std::uint64_t durUs,
                 const std::string& extra = {}) {
    std::string b = fVarint(1, id) + fBytes(2, name) + fVarint(3, static_cast<std::uint64_t>(type));
    if (data.size()) b += fBytes(5, packed(data));
    if (durUs) b += fVarint(7, durUs);
    return b + extra;
}
std::string attrInt32(const std::string& name, std::uint64_t v) {
    return fBytes(10, fBytes(1, name) + fVarint(7, v));
}
std::string attrString(const std::string& name, const std::string& v) {
    return fBytes(10, fBytes(1, name) + fBytes(29, v));
}
std::string fileWithMeta(const std::string& meta, const std::vector<std::string>& nodes) {
    std::string out = varint(meta.size()) + meta;
    for (const auto& n : nodes)
        out += varint(n.size()) + n;
    return out;
}
std::string file(std::initializer_list<std::string> nodes) {
    return fileWithMeta(fBytes(1, "0.0.4"), nodes);
}

constexpr int kComp = 4, kCommSend = 5, kCommRecv = 6, kCommColl = 7;

// The GlobalMetadata Chakra's PyTorch converter writes: no version, the schema and the host trace's
// pid, time and timestamps as attributes (uint64 for the numbers).
std::string converterMeta() {
    auto u64 = [](const std::string& name, std::uint64_t v) {
        return fBytes(2, fBytes(1, name) + fVarint(13, v));
    };
    auto str = [](const std::string& name, const std::string& v) {
        return fBytes(2, fBytes(1, name) + fBytes(29, v));
    };
    return str("schema", "1.1.1-chakra.0.0.4") + u64("pid", 1234) + str("time", "2024-07-01 10:00:00") +
           u64("start_ts", 100) + u64("finish_ts", 900);
}

// A ring all-reduce of 1 MiB over 8 ranks written as sends and receives: 2(n-1) = 14 steps; in
// step s rank r sends a 128 KiB chunk to r+1 and receives one from r-1 (tag s), both after the
// previous step's receive. Sends on stream 1, receives on stream 2 (as NCCL overlaps them).
std::vector<std::string> ringRank(int r, bool tags, bool peers) {
    std::vector<std::string> nodes;
    const int n = 8, steps = 2 * (n - 1);
    const std::uint64_t chunk = (1u << 20) / n;
    for (int s = 0; s < steps; ++s) {
        const std::uint64_t sendId = 2 * static_cast<std::uint64_t>(s) + 1, recvId = sendId + 1;
        std::string common = attrBool("is_cpu_op", false) + attrInt("comm_size", chunk);
        if (tags) common += attrInt32("comm_tag", static_cast<std::uint64_t>(s));
        std::string sendAttr = common + attrInt("tid", 1), recvAttr = common + attrInt("tid", 2);
        if (peers) {
            sendAttr += attrInt32("comm_src", static_cast<std::uint64_t>(r)) +
                        attrInt32("comm_dst", static_cast<std::uint64_t>((r + 1) % n));
            recvAttr += attrInt32("comm_src", static_cast<std::uint64_t>((r + n - 1) % n)) +
                        attrInt32("comm_dst", static_cast<std::uint64_t>(r));
        }
        std::string send = node(sendId, "send", kCommSend, {}, 0, sendAttr);
        std::string recv = node(recvId, "recv", kCommRecv, {}, 0, recvAttr);
        if (s > 0) {
            // data_deps = [previous receive], appended after the attributes (field order is free).
            send += fBytes(5, varint(sendId - 1));
            recv += fBytes(5, varint(sendId - 1));
        }
        nodes.push_back(send);
        nodes.push_back(recv);
    }
    return nodes;
}

QString errorOf(const std::string& bytes) {
    try {
        readChakraBytes(bytes, "x.et");
    } catch (const LoadError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestChakraReader : public QObject {
    Q_OBJECT

private slots:
    void realOneRankCounts() {
        if (!sltest::haveTraces()) QSKIP("../shared/traces not present");
        ChakraFile f = readChakraFile(sltest::tracePath("chakra/real-1rank/chakra.0.et"));
        // Decoded independently (a wire-format script): 3664 nodes, 3643 COMP + 21 COMM_COLL, one
        // ctrl dep per node (1277 to ids not in the file, 383 to the node itself), 181878 data deps,
        // 7 COMM_COLL with comm_type/comm_size, 157 nodes (GPU COMP) without a duration.
        QCOMPARE(f.nodes.size(), std::size_t(3664));
        int comp = 0, coll = 0, sized = 0, noDur = 0;
        std::int64_t data = 0, ctrl = 0;
        for (const auto& n : f.nodes) {
            comp += n.type == ChakraNodeType::Comp;
            coll += n.type == ChakraNodeType::CommColl;
            sized += n.commSize >= 0;
            noDur += n.durationNs < 0;
            data += static_cast<std::int64_t>(n.dataDeps.size());
            ctrl += static_cast<std::int64_t>(n.ctrlDeps.size());
        }
        QCOMPARE(comp, 3643);
        QCOMPARE(coll, 21);
        QCOMPARE(sized, 7);
        QCOMPARE(noDur, 157);
        QCOMPARE(data, std::int64_t(181878));
        QCOMPARE(ctrl, std::int64_t(3664));
        QCOMPARE(f.ctrlDepsMissing, std::int64_t(1277));
        QCOMPARE(f.ctrlDepsOnSelf, std::int64_t(383));
        QCOMPARE(f.metadata.front().first, std::string("schema"));
        // The first node of the file: id 216, aten::flatten_dense_tensors(0), CPU op on thread 1.
        QCOMPARE(f.nodes.front().id, std::uint64_t(216));
        QCOMPARE(f.nodes.front().name, std::string("aten::flatten_dense_tensors(0)"));
        QVERIFY(f.nodes.front().isCpuOp);
        QCOMPARE(f.nodes.front().tid, std::int64_t(1));
        QCOMPARE(f.nodes.front().durationNs, std::int64_t(318000));
    }

    void realOneRankSimulates() {
        if (!sltest::haveTraces()) QSKIP("../shared/traces not present");
        TraceSet set = loadTraceSet({sltest::tracePath("chakra/real-1rank")});
        QCOMPARE(set.ranks.size(), std::size_t(1));
        QVERIFY(!set.ranks[0].hasMeasuredTimes);
        ExecutionGraph g = buildExecutionGraph(set);
        QCOMPARE(g.nodes.size(), std::size_t(3664));
        // Tracks: CPU threads 1 and 2, GPU streams 7 (compute) and 14 (communication), from "tid".
        QCOMPARE(set.ranks[0].tracks.size(), std::size_t(4));
        QCOMPARE(g.stats.collectivesMatched, std::int64_t(7));
        SimResult res = simulate(g);
        QVERIFY(res.complete);
        // The GPU compute stream alone holds 292828 us of kernel time (sum of its durations), so
        // the replay cannot be shorter.
        QVERIFY(res.simulatedIteration >= 292828000);
    }

    void allReduceSet() {
        if (!sltest::haveTraces()) QSKIP("../shared/traces not present");
        TraceSet set = loadTraceSet({sltest::tracePath("chakra/allreduce-8npus")});
        QCOMPARE(set.ranks.size(), std::size_t(8));
        for (int r = 0; r < 8; ++r) {
            QCOMPARE(set.ranks[static_cast<std::size_t>(r)].rank, r);
            QCOMPARE(set.ranks[static_cast<std::size_t>(r)].collectives.size(), std::size_t(1));
            const auto& m = set.ranks[static_cast<std::size_t>(r)].collectives[0];
            QCOMPARE(m.type, CollectiveType::AllReduce);
            QCOMPARE(m.bytes(set.ranks[static_cast<std::size_t>(r)].strings), std::int64_t(1048576));
        }
        ExecutionGraph g = buildExecutionGraph(set);
        QCOMPARE(g.collectives.size(), std::size_t(1));
        QVERIFY(g.collectives[0].complete);
        QCOMPARE(g.collectives[0].members.size(), std::size_t(8));
        QCOMPARE(g.stats.collectivesMatched, std::int64_t(1));
        SimResult res = simulate(g);
        // Alpha-beta by hand: 5 us + 1 MiB x 2(8-1)/8 / 150 GB/s = 5000 + 1835008 / 150 = 17233 ns.
        for (const auto& r : res.ranks)
            QCOMPARE(r.simulated(), TimeNs(17233));
        // comm.model=alpha-beta with a knob bandwidth re-times it: 10 us + 1835008 / 50 = 46700 ns.
        SimKnobs k;
        setKnobAssignment(k, "comm.model=alpha-beta");
        setKnobAssignment(k, "comm.intra_node_GBps=50");
        setKnobAssignment(k, "comm.latency_us=10");
        SimResult slow = simulate(g, k);
        QCOMPARE(slow.simulatedIteration, TimeNs(46700));
    }

    void handTimedGraph() {
        // 1: CPU op 10 us; 2: GPU kernel 20 us after 1; 3: GPU kernel 5 us (no deps, after 2 on
        // the stream by file order); 4: CPU op 3 us after 2. By hand: 1 [0,10], 2 [10,30],
        // 3 [30,35], 4 [30,33]; iteration 35 us.
        QTemporaryDir dir;
        std::string bytes = file({node(1, "cpu_a", kComp, {}, 10, attrBool("is_cpu_op", true)),
                                  node(2, "kernel_b", kComp, {1}, 20), node(3, "kernel_c", kComp, {}, 5),
                                  node(4, "cpu_d", kComp, {2}, 3, attrBool("is_cpu_op", true))});
        std::string path = sltest::writeFile(dir, "g.0.et", QByteArray::fromStdString(bytes));
        TraceSet set = loadTraceSet({path});
        ExecutionGraph g = buildExecutionGraph(set);
        QCOMPARE(g.nodes.size(), std::size_t(4));
        // Edges: thread order 1->4, stream order 2->3, cross 1->2 and 2->4.
        QCOMPARE(g.stats.edgesByKind[static_cast<int>(EdgeKind::ThreadOrder)], std::int64_t(1));
        QCOMPARE(g.stats.edgesByKind[static_cast<int>(EdgeKind::StreamOrder)], std::int64_t(1));
        QCOMPARE(g.stats.edgesByKind[static_cast<int>(EdgeKind::CrossStream)], std::int64_t(2));
        SimResult res = simulate(g);
        QCOMPARE(res.simulatedIteration, TimeNs(35000));
        auto endOf = [&](const char* name) {
            for (NodeId n = 0; n < g.nodes.size(); ++n)
                if (g.nodeName(n) == name) return res.nodes[n].end;
            return TimeNs(-1);
        };
        QCOMPARE(endOf("kernel_c"), TimeNs(35000));
        QCOMPARE(endOf("cpu_d"), TimeNs(33000));
        ChakraRankSummary s = chakraRankSummary(set.ranks[0]);
        QCOMPARE(s.nodesByType[static_cast<int>(ChakraNodeType::Comp)], std::int64_t(4));
        QCOMPARE(s.dataDeps, std::int64_t(2));
    }

    void badInputNamesNode_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        const std::string ok = file({node(1, "a", kComp, {}, 1), node(2, "b", kComp, {1}, 1)});
        QTest::newRow("missing dep") << QByteArray::fromStdString(file({node(3, "a", kComp, {42}, 1)}))
                                     << "node 3: data dependency on node 42";
        QTest::newRow("cycle") << QByteArray::fromStdString(
                                      file({node(1, "a", kComp, {2}, 1), node(2, "b", kComp, {1}, 1)}))
                               << "form a cycle";
        QTest::newRow("truncated") << QByteArray::fromStdString(ok.substr(0, ok.size() - 2))
                                   << "truncated protobuf";
        QTest::newRow("corrupt") << QByteArray::fromStdString(file({std::string("\x0f\xff\xff\x07", 4)}))
                                 << "does not parse";
        QTest::newRow("size overflow")
            << QByteArray::fromStdString(file({node(
                   9, "ar", kCommColl, {}, 0, attrInt("comm_type", 0) + attrInt("comm_size", 1ull << 63))}))
            << "node 9: comm_size";
        QTest::newRow("duration overflow")
            << QByteArray::fromStdString(file({node(4, "k", kComp, {}, 1ull << 61)})) << "node 4: duration";
        QTest::newRow("duplicate") << QByteArray::fromStdString(
                                          file({node(5, "a", kComp, {}, 1), node(5, "b", kComp, {}, 1)}))
                                   << "node 5: the id appears twice";
        QTest::newRow("empty") << QByteArray() << "empty file";
    }
    void badInputNamesNode() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        QString err = errorOf(bytes.toStdString());
        QVERIFY2(err.startsWith("x.et: "), qPrintable(err));
        QVERIFY2(err.contains(expected), qPrintable(err));
        QVERIFY(!err.contains('\n'));
    }

    // Sends and receives pair by (comm_src, comm_dst, comm_tag): a ring all-reduce of 224 of them
    // is 112 two-rank transfers, not 28 eight-rank "collectives".
    void ringAllReduceAsSendRecv_data() {
        QTest::addColumn<bool>("tags");
        QTest::newRow("with comm_tag") << true;
        QTest::newRow("pair order without comm_tag") << false;
    }
    void ringAllReduceAsSendRecv() {
        QFETCH(bool, tags);
        QTemporaryDir dir;
        for (int r = 0; r < 8; ++r) {
            auto nodes = ringRank(r, tags, true);
            sltest::writeFile(dir, ("ring." + std::to_string(r) + ".et").c_str(),
                              QByteArray::fromStdString(fileWithMeta(fBytes(1, "0.0.4"), nodes)));
        }
        TraceSet set = loadTraceSet({dir.path().toStdString()});
        ExecutionGraph g = buildExecutionGraph(set);
        QCOMPARE(g.stats.collectivesMatched, std::int64_t(112));
        QCOMPARE(g.stats.collectivesUnmatched, std::int64_t(0));
        QCOMPARE(g.collectives.size(), std::size_t(112));
        for (const auto& c : g.collectives) {
            QCOMPARE(c.members.size(), std::size_t(2));
            // The send on rank r meets the receive on rank r+1.
            const int from = g.rankOf(c.members[0]).rank, to = g.rankOf(c.members[1]).rank;
            QCOMPARE(to, (from + 1) % 8);
        }
        // Each step is one 128 KiB transfer between two ranks by the default model: 5 us + 131072 B /
        // 150 GB/s = 5873.8 ns; the 14 steps follow one another on every rank: 14 x 5874 = 82236 ns.
        SimResult res = simulate(g);
        QVERIFY(res.complete);
        QCOMPARE(res.simulatedIteration, TimeNs(82236));
    }

    // Chakra's converter writes no comm_src / comm_dst / comm_tag: a send and a receive in a
    // process group of two ranks talk to each other, in order.
    void sendRecvPeersFromTwoRankGroup() {
        QTemporaryDir dir;
        const std::string pg =
            attrString("pg_name", "4") + attrBool("is_cpu_op", false) + attrInt("comm_size", 4096);
        sltest::writeFile(
            dir, "pp.0.et",
            QByteArray::fromStdString(file(
                {node(1, "fwd", kComp, {}, 10), node(2, "ncclDevKernel_SendRecv", kCommSend, {1}, 3, pg)})));
        sltest::writeFile(
            dir, "pp.1.et",
            QByteArray::fromStdString(file(
                {node(1, "ncclDevKernel_SendRecv", kCommRecv, {}, 3, pg), node(2, "fwd", kComp, {1}, 10)})));
        TraceSet set = loadTraceSet({dir.path().toStdString()});
        ExecutionGraph g = buildExecutionGraph(set);
        QCOMPARE(g.stats.collectivesMatched, std::int64_t(1));
        // Rank 1's receive waits for rank 0's send: 10 + 3, then its own 10 us.
        SimResult res = simulate(g);
        QCOMPARE(res.simulatedIteration, TimeNs(23000));
    }

    // A converter-style file: GPU nodes carry the CPU thread in "tid" and their stream in "stream";
    // the version is not set (the schema is an attribute). The kernel and the all-reduce run on
    // streams 7 and 14 side by side: CPU mm [0,10], record_param_comms [10,12]; gemm [10,30] on 7,
    // all-reduce [12,42] on 14: 42 us (one stream would give 60).
    void converterStyleStreams() {
        QTemporaryDir dir;
        const std::string cpu = attrBool("is_cpu_op", true) + attrInt("tid", 1);
        const std::string gpu = attrBool("is_cpu_op", false) + attrInt("tid", 1);
        std::vector<std::string> nodes = {
            node(1, "aten::mm", kComp, {}, 10, cpu), node(2, "record_param_comms", kComp, {1}, 2, cpu),
            node(3, "ampere_sgemm_128x64_nn", kComp, {1}, 20, gpu + attrInt("stream", 7)),
            node(4, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", kCommColl, {2}, 30,
                 gpu + attrInt("stream", 14) + attrInt("comm_type", 0) + attrInt("comm_size", 1u << 20))};
        const std::string path = sltest::writeFile(
            dir, "chakra.0.et", QByteArray::fromStdString(fileWithMeta(converterMeta(), nodes)));
        ChakraFile f = readChakraFile(path);
        QCOMPARE(f.version, std::string());
        QCOMPARE(f.metadata.front().second, std::string("1.1.1-chakra.0.0.4"));
        QCOMPARE(f.nodes[2].stream, std::int64_t(7));
        TraceSet set = loadTraceSet({path});
        QCOMPARE(set.ranks[0].tracks.size(), std::size_t(3)); // thread 1, streams 7 and 14
        ExecutionGraph g = buildExecutionGraph(set);
        SimResult res = simulate(g);
        QCOMPARE(res.simulatedIteration, TimeNs(42000));
    }

    // A CPU node far longer than the GPU work it launches most likely includes time blocked on the
    // GPU (the converter's durations do): a warning with the count; none for an ordinary launch.
    void blockingDurationsWarn_data() {
        QTest::addColumn<int>("itemUs");
        QTest::addColumn<bool>("warns");
        QTest::newRow("aten::item 900 us around a 2 us copy") << 900 << true;
        QTest::newRow("aten::item 15 us around a 2 us copy") << 15 << false;
    }
    void blockingDurationsWarn() {
        QFETCH(int, itemUs);
        QFETCH(bool, warns);
        QTemporaryDir dir;
        const std::string cpu = attrBool("is_cpu_op", true) + attrInt("tid", 1);
        const std::string path = sltest::writeFile(
            dir, "chakra.0.et",
            QByteArray::fromStdString(fileWithMeta(
                converterMeta(), {node(1, "aten::item", kComp, {}, static_cast<std::uint64_t>(itemUs), cpu),
                                  node(2, "Memcpy DtoH (Device -> Pageable)", kComp, {1}, 2,
                                       attrBool("is_cpu_op", false) + attrInt("stream", 7))})));
        TraceSet set = loadTraceSet({path});
        QCOMPARE(set.ranks[0].warnings.count(Warn::ChakraCpuBlocked), std::int64_t(warns ? 1 : 0));
    }

    void writerRoundTrip() {
        ChakraFile f;
        f.version = "0.0.4";
        f.metadata = {{"source", "test"}};
        ChakraNode a;
        a.id = 10;
        a.name = "aten::mm";
        a.type = ChakraNodeType::Comp;
        a.durationNs = 12000;
        a.isCpuOp = false;
        a.tid = 7;
        a.inputShapes = "[[4, 8], [8, 2]]";
        a.inputTypes = "['Tensor(float)', 'Tensor(float)']";
        ChakraNode b;
        b.id = 11;
        b.name = "all_reduce";
        b.type = ChakraNodeType::CommColl;
        b.dataDeps = {10};
        b.commType = static_cast<int>(ChakraCommType::AllReduce);
        b.commSize = 65536;
        b.commGroup = "0";
        f.nodes = {a, b};
        std::string bytes = chakraBytes(f);
        // The first bytes by hand: length of GlobalMetadata, then field 1 (0x0a) "0.0.4".
        QCOMPARE(static_cast<unsigned char>(bytes[1]), static_cast<unsigned char>(0x0a));
        QCOMPARE(bytes.substr(3, 5), std::string("0.0.4"));
        ChakraFile back = readChakraBytes(bytes, "rt.et");
        QCOMPARE(back.version, std::string("0.0.4"));
        QCOMPARE(back.metadata.size(), std::size_t(1));
        QCOMPARE(back.nodes.size(), std::size_t(2));
        QCOMPARE(back.nodes[0].name, std::string("aten::mm"));
        QCOMPARE(back.nodes[0].durationNs, std::int64_t(12000));
        QCOMPARE(back.nodes[0].tid, std::int64_t(7));
        QCOMPARE(back.nodes[0].inputShapes, a.inputShapes);
        QCOMPARE(back.nodes[0].inputTypes, a.inputTypes);
        QCOMPARE(back.nodes[1].dataDeps, std::vector<std::uint64_t>{10});
        QCOMPARE(back.nodes[1].commType, 0);
        QCOMPARE(back.nodes[1].commSize, std::int64_t(65536));
        QCOMPARE(back.nodes[1].commGroup, std::string("0"));
        QCOMPARE(back.nodes[1].durationNs, std::int64_t(-1));
    }

    void fileNames() {
        QCOMPARE(rankFromChakraFileName("/a/chakra.12.et"), 12);
        QCOMPARE(rankFromChakraFileName("all_reduce.3.et"), 3);
        QCOMPARE(rankFromChakraFileName("trace.et"), -1);
        QCOMPARE(rankFromChakraFileName("x.json"), -1);
    }
};

QTEST_GUILESS_MAIN(TestChakraReader)
#include "test_ChakraReader.moc"
