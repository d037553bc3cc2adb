// The timeline colours a kernel as communication exactly when the analysis counts it as
// communication: NCCL collectives and also kernels that move data between GPUs without NCCL
// (DeepEP dispatch / combine, NVSHMEM, custom all-reduce). The expected flags are written by hand.
#include "TimelineData.h"

#include "io/KinetoLoader.h"
#include "trace/TraceSet.h"

#include <QtTest>

#include <memory>
#include <string>

using namespace sl;
using namespace sl::ui;

class TestTimelineCommunication : public QObject {
    Q_OBJECT
private slots:
    void kernelsThatMoveDataAreCommunication_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("communication");
        QTest::newRow("nccl all-reduce")
            << "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, ncclWork*)" << true;
        QTest::newRow("deepep dispatch")
            << "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*, long*)" << true;
        QTest::newRow("deepep combine") << "void deep_ep::internode_ll::combine<8>(void*, int*)" << true;
        QTest::newRow("deepep layout (compute)")
            << "void deep_ep::layout::get_dispatch_layout<256, 32, 8>(long const*, int*)" << false;
        QTest::newRow("gemm") << "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64" << false;
        QTest::newRow("c10d op") << "c10d::allreduce_" << true;
    }
    void kernelsThatMoveDataAreCommunication() {
        QFETCH(QString, name);
        QFETCH(bool, communication);
        const std::string json =
            "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"" + name.toStdString() +
            "\",\"pid\":0,\"tid\":7,\"ts\":10,\"dur\":5,\"args\":{\"device\":0,\"stream\":7}}]}";
        auto set = std::make_shared<TraceSet>();
        set->ranks.push_back(loadKinetoBytes(json, "hand-made.json"));
        const auto data = TimelineData::measured(set);
        const Rank& rank = set->ranks.front();
        const StringId id = rank.strings.find(name.toStdString());
        QVERIFY(id != StringTable::kNone);
        QCOMPARE(data->ranks().front().collective[id] != 0, communication);
    }
};

QTEST_GUILESS_MAIN(TestTimelineCommunication)
#include "test_TimelineCommunication.moc"
