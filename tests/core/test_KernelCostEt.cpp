// Per-kernel cost with shapes from an attached PyTorch execution trace (docs/GpuModel.md, "Shapes
// from an execution trace"): a Kineto trace recorded without "Input Dims" gets its ops' shapes from
// the linked ET nodes (io/EtLinker, Rank::etOpShapes) and the cost model reads them.
#include "TestSupport.h"

#include "graph/ExecutionGraph.h"
#include "io/EtLinker.h"
#include "io/ExecutionTrace.h"
#include "io/KinetoLoader.h"
#include "models/KernelCost.h"
#include "sim/GpuSwap.h"

#include <string>

using namespace sl;

namespace {

// One aten::mm [64,32] x [32,128] fp32 (one cuBLAS kernel) and one aten::add [256,256] + [256,256]
// fp32 (one elementwise kernel), with "Record function id" 5 and 6 for the link to the ET. `shapes`
// adds the Kineto "Input Dims" / "Input type" of a trace recorded with record_shapes=True.
std::string kineto(bool shapes) {
    const std::string mmShapes =
        shapes ? R"(,"Input Dims":[[64,32],[32,128]],"Input type":["float","float"])" : "";
    const std::string addShapes =
        shapes ? R"(,"Input Dims":[[256,256],[256,256],[]],"Input type":["float","float","Scalar"])" : "";
    return std::string(
               R"json({"deviceProperties":[{"id":0,"name":"NVIDIA A100-SXM4-80GB","totalGlobalMem":85899345920,"numSms":108}],
"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":50,"args":{"Record function id":5)json") +
           mmShapes + R"json(}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1,"dur":5,"args":{"correlation":1}},
{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":60,"dur":20,"args":{"Record function id":6)json" +
           addShapes + R"json(}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":61,"dur":5,"args":{"correlation":2}},
{"ph":"X","cat":"kernel","name":"ampere_sgemm_128x64_nn","pid":0,"tid":7,"ts":20,"dur":30,"args":{"correlation":1,"stream":7,"device":0}},
{"ph":"X","cat":"kernel","name":"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float> >","pid":0,"tid":7,"ts":70,"dur":8,"args":{"correlation":2,"stream":7,"device":0}}
]})json";
}

// The ET of the same run (schema 1.0.1): rf_id 5 and 6 are the two ops, with their shapes and types.
const char* kEt = R"json({"schema":"1.0.1","pid":1,"nodes":[
{"name":"[pytorch|profiler|execution_graph|thread]","id":1,"rf_id":0,"parent":1,"tid":1,"inputs":[],"input_shapes":[],"input_types":[],"outputs":[],"output_shapes":[],"output_types":[]},
{"name":"aten::mm","id":2,"rf_id":5,"parent":1,"tid":1,
 "inputs":[[10,11,0,2048,4,"cuda:0"],[12,13,0,4096,4,"cuda:0"]],"input_shapes":[[64,32],[32,128]],"input_types":["Tensor(float)","Tensor(float)"],
 "outputs":[[14,15,0,8192,4,"cuda:0"]],"output_shapes":[[64,128]],"output_types":["Tensor(float)"]},
{"name":"aten::add","id":3,"rf_id":6,"parent":1,"tid":1,
 "inputs":[[20,21,0,65536,4,"cuda:0"],[22,23,0,65536,4,"cuda:0"],1],"input_shapes":[[256,256],[256,256],[]],"input_types":["Tensor(float)","Tensor(float)","Int"],
 "outputs":[[24,25,0,65536,4,"cuda:0"]],"output_shapes":[[256,256]],"output_types":["Tensor(float)"]}
]})json";

const KernelCostEntry& entryOf(const Rank& rank, const std::vector<KernelCostEntry>& costs,
                               std::string_view prefix) {
    for (const auto& e : costs)
        if (rank.name(e.gpuOp).starts_with(prefix)) return e;
    qFatal("no kernel %s", std::string(prefix).c_str());
}

} // namespace

class TestKernelCostEt : public QObject {
    Q_OBJECT
private slots:
    void etShapesGiveTheSameCostAsKinetoShapes() {
        // Hand-computed: mm [64,32] x [32,128] fp32 = 2*64*32*128 = 524288 FLOPs; bytes
        // (64*32 + 32*128 + 64*128) * 4 = 57344. add of two [256,256] fp32 = 65536 FLOPs (one per
        // result element); bytes 2 reads + 1 write of 65536*4 = 786432.
        Rank withShapes = loadKinetoBytes(kineto(true), "with-shapes.json");
        Rank bare = loadKinetoBytes(kineto(false), "no-shapes.json");

        auto before = kernelCosts(bare);
        QCOMPARE(before.size(), std::size_t(2));
        for (const auto& e : before)
            QCOMPARE(e.missing, CostMissing::NoShapes);

        EtLinkStats st = attachExecutionTrace(bare, parseExecutionTrace(kEt, "hand.et.json"));
        QCOMPARE(st.method, std::string("record function id"));
        QCOMPARE(st.opsShaped, 2);

        auto fromEt = kernelCosts(bare);
        auto fromKineto = kernelCosts(withShapes);
        for (const char* k : {"ampere_sgemm", "void at::native::vectorized_elementwise_kernel"}) {
            const auto& a = entryOf(bare, fromEt, k);
            const auto& b = entryOf(withShapes, fromKineto, k);
            QVERIFY(a.known());
            QVERIFY(a.shapesFromEt);
            QVERIFY(b.known());
            QVERIFY(!b.shapesFromEt);
            QCOMPARE(a.cost.flops, b.cost.flops);
            QCOMPARE(a.cost.bytes, b.cost.bytes);
            QCOMPARE(a.cost.family, b.cost.family);
            QCOMPARE(a.cost.peak, b.cost.peak);
        }
        QCOMPARE(entryOf(bare, fromEt, "ampere_sgemm").cost.flops, 524288.0);
        QCOMPARE(entryOf(bare, fromEt, "ampere_sgemm").cost.bytes, 57344.0);
        QCOMPARE(entryOf(bare, fromEt, "void at::native::vectorized").cost.flops, 65536.0);
        QCOMPARE(entryOf(bare, fromEt, "void at::native::vectorized").cost.bytes, 786432.0);
    }

    void kinetoShapesWinOverTheEt() {
        // An op recorded with shapes keeps them: the ET is not consulted (no op shaped from it).
        Rank withShapes = loadKinetoBytes(kineto(true), "with-shapes.json");
        EtLinkStats st = attachExecutionTrace(withShapes, parseExecutionTrace(kEt, "hand.et.json"));
        QCOMPARE(st.opsShaped, 0);
        for (const auto& e : kernelCosts(withShapes))
            QVERIFY(!e.shapesFromEt);
    }

    void etBooleansReachTheCostModel() {
        // _scaled_dot_product_efficient_attention(q, k, v, attn_bias, compute_log_sumexp, dropout_p,
        // is_causal): q, k, v [2,4,128,64] bf16 take 2*2*4*128*128*(64+64) = 33554432 FLOPs, half
        // (16777216) with is_causal=True, which the ET writes as a JSON boolean.
        const char* kinetoText =
            R"json({"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"aten::_scaled_dot_product_efficient_attention","pid":1,"tid":1,"ts":0,"dur":50,"args":{"Record function id":9}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1,"dur":5,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","name":"fmha_cutlassF_bf16_aligned_64x64_rf_sm80","pid":0,"tid":7,"ts":20,"dur":30,"args":{"correlation":1,"stream":7,"device":0}}
]})json";
        auto etText = [](bool causal) {
            return std::string(R"json({"schema":"1.0.1","pid":1,"nodes":[
{"name":"aten::_scaled_dot_product_efficient_attention","id":2,"rf_id":9,"parent":1,"tid":1,
 "inputs":[[1,1,0,65536,2,"cuda:0"],[2,2,0,65536,2,"cuda:0"],[3,3,0,65536,2,"cuda:0"],"<None>",false,0,)json") +
                   (causal ? "true" : "false") + R"json(],
 "input_shapes":[[2,4,128,64],[2,4,128,64],[2,4,128,64],[],[],[],[]],
 "input_types":["Tensor(c10::BFloat16)","Tensor(c10::BFloat16)","Tensor(c10::BFloat16)","None","Bool","Double","Bool"],
 "outputs":[],"output_shapes":[],"output_types":[]}]})json";
        };
        for (bool causal : {false, true}) {
            Rank rank = loadKinetoBytes(kinetoText, "attention.json");
            attachExecutionTrace(rank, parseExecutionTrace(etText(causal), "attention.et.json"));
            auto costs = kernelCosts(rank);
            QCOMPARE(costs.size(), std::size_t(1));
            QVERIFY(costs[0].known());
            QCOMPARE(costs[0].cost.family, OpFamily::Attention);
            QCOMPARE(costs[0].cost.flops, causal ? 16777216.0 : 33554432.0);
        }
    }

    void gpuSwapCountsKernelsShapedByTheEt() {
        Rank bare = loadKinetoBytes(kineto(false), "no-shapes.json");
        attachExecutionTrace(bare, parseExecutionTrace(kEt, "hand.et.json"));
        TraceSet set;
        set.ranks.push_back(std::move(bare));
        ExecutionGraph g = buildExecutionGraph(set, {});
        GpuSwap s = planGpuSwap(g, "H100", "", KernelClassifier{});
        QCOMPARE(s.shapesFromEt, std::int64_t(2));
        QCOMPARE(s.withoutShapes, std::int64_t(0));
        QCOMPARE(gpuSwapJson(s)["shapes_from_et"].get<std::int64_t>(), std::int64_t(2));
    }

    void realEtPairGivesMoreKernelsShapes() {
        SL_REQUIRE_TRACES();
        // et-pairs/a100-simple-add-small: the Kineto trace has no "Input Dims"; its 4 kernels are two
        // distribution_elementwise kernels of aten::uniform_ (inside aten::rand) and two
        // vectorized_elementwise kernels of aten::add (read with python from the Kineto file: launch
        // correlations 22, 39, 53, 72). The ET gives uniform_ a [256,256] float tensor and add two
        // [256,256] float tensors (python: input_shapes of rf_id 4, 7, 22, 36). Without the ET: 0 of
        // the 4 have a cost; with it: 4 (add is elementwise, uniform_ costs as its elementwise kernel).
        const std::string dir = sltest::tracePath("et-pairs/");
        Rank rank = loadKinetoFile(dir + "a100-simple-add-small.kineto.json.gz");
        auto known = [](const std::vector<KernelCostEntry>& v) {
            int n = 0;
            for (const auto& e : v)
                n += e.known() ? 1 : 0;
            return n;
        };
        auto before = kernelCosts(rank);
        QCOMPARE(before.size(), std::size_t(4));
        QCOMPARE(known(before), 0);
        attachExecutionTrace(rank, loadExecutionTrace(dir + "a100-simple-add-small.et.json.gz"));
        auto after = kernelCosts(rank);
        QCOMPARE(known(after), 4);
        for (const auto& e : after) {
            QVERIFY(e.shapesFromEt);
            // Each op is [256,256] fp32 with one kernel: 65536 elements.
            QCOMPARE(e.cost.flops, 65536.0);
        }
    }
};

QTEST_GUILESS_MAIN(TestKernelCostEt)
#include "test_KernelCostEt.moc"
