// FLOPs and bytes per op family (models/KernelCost.h) against counts worked out by hand from the
// shapes (each expected value's arithmetic is in its comment), and the kernel -> launching op link
// with the split of an op's cost among its kernels.
#include "TestSupport.h"

#include "io/KinetoLoader.h"
#include "models/KernelCost.h"

using namespace sl;

namespace {

OpShapes shapes(std::vector<std::vector<std::int64_t>> dims, std::vector<std::string> types,
                std::vector<std::string> concrete = {}) {
    OpShapes s;
    s.dims = std::move(dims);
    s.types = std::move(types);
    s.concrete = std::move(concrete);
    return s;
}

OpCost costOf(const char* op, const OpShapes& s, KernelClass cls = KernelClass::Other) {
    auto c = opCost(op, s, cls);
    if (!c) qFatal("no cost for %s", op);
    return *c;
}

const std::string kBf16 = "c10::BFloat16";

} // namespace

class TestKernelCost : public QObject {
    Q_OBJECT

private slots:
    void parsesKinetoArgs() {
        // As the DLRM traces write them (record_shapes=True, no Concrete Inputs).
        auto s = parseOpShapes(
            R"({"External id": 425, "Ev Idx": 1108, "Input Dims": [[256], [16, 13], [13, 256], )"
            R"([], []], "Input type": ["float", "float", "float", "Scalar", "Scalar"]})");
        QVERIFY(s);
        QCOMPARE(s->dims.size(), std::size_t(5));
        QCOMPARE(s->dims[1], (std::vector<std::int64_t>{16, 13}));
        QVERIFY(s->isTensor(0) && s->isTensor(2));
        QVERIFY(!s->isTensor(3)); // "Scalar"
        QCOMPARE(s->numel(2), std::int64_t(13 * 256));
        QVERIFY(s->concrete.empty());
        QVERIFY(!parseOpShapes(R"({"External id": 3})")); // recorded without shapes
        QVERIFY(!parseOpShapes(R"({"Input Dims": 7})"));  // malformed
        auto c = parseOpShapes(R"({"Input Dims": [[2], []], "Input type": ["c10::Half", "bool"], )"
                               R"("Concrete Inputs": ["", "True"]})");
        QVERIFY(c);
        QCOMPARE(c->concrete.size(), std::size_t(2));
        QCOMPARE(c->concrete[1], std::string("True"));
        QCOMPARE(dtypeBytes(dtypeFromName("c10::Half")), 2);
        QCOMPARE(dtypeBytes(dtypeFromName("long int")), 8);
        QCOMPARE(dtypeBytes(dtypeFromName("c10::Float8_e4m3fn")), 1);
        QCOMPARE(dtypeBytes(dtypeFromName("TensorList")), 0);
    }

    void gemms() {
        // addmm(bias [256], [16,13] x [13,256]) fp32: 2*16*13*256 = 106496 FLOPs;
        // bytes (16*13 + 13*256 + 16*256 + 256) * 4 = (208 + 3328 + 4096 + 256) * 4 = 31552.
        OpCost a = costOf("aten::addmm", shapes({{256}, {16, 13}, {13, 256}, {}, {}},
                                                {"float", "float", "float", "Scalar", "Scalar"}));
        QCOMPARE(a.family, OpFamily::Gemm);
        QCOMPARE(a.flops, 106496.0);
        QCOMPARE(a.bytes, 31552.0);
        QVERIFY(a.matrix);
        QCOMPARE(a.peak, PeakType::Fp32);
        // mm [16,1] x [1,256]: 2*16*1*256 = 8192; (16 + 256 + 4096) * 4 = 17472.
        OpCost m = costOf("aten::mm", shapes({{16, 1}, {1, 256}}, {"float", "float"}));
        QCOMPARE(m.flops, 8192.0);
        QCOMPARE(m.bytes, 17472.0);
        // bmm [16,16,27] x [16,27,27]: 2*16*16*27*27 = 373248; 16*(432 + 729 + 432)*4 = 101952.
        OpCost b = costOf("aten::bmm", shapes({{16, 16, 27}, {16, 27, 27}}, {"float", "float"}));
        QCOMPARE(b.flops, 373248.0);
        QCOMPARE(b.bytes, 101952.0);
        // linear(input [2,8,64], weight [128,64], bias [128]) bf16: M = 16, K = 64, N = 128:
        // 2*16*64*128 = 262144; (1024 + 8192 + 2048) * 2 + 128 * 2 = 22784.
        OpCost l = costOf("aten::linear", shapes({{2, 8, 64}, {128, 64}, {128}}, {kBf16, kBf16, kBf16}));
        QCOMPARE(l.flops, 262144.0);
        QCOMPARE(l.bytes, 22784.0);
        QCOMPARE(l.peak, PeakType::Bf16);
        // matmul [4,32,64] x [64,16] fp16 (the second operand broadcast): 2*4*32*64*16 = 262144;
        // read 4*32*64*2 + 64*16*2 = 16384 + 2048, write 4*32*16*2 = 4096: 22528.
        OpCost mm = costOf("aten::matmul", shapes({{4, 32, 64}, {64, 16}}, {"c10::Half", "c10::Half"}));
        QCOMPARE(mm.flops, 262144.0);
        QCOMPARE(mm.bytes, 22528.0);
        QCOMPARE(mm.peak, PeakType::Fp16);
        QVERIFY(!opCost("aten::mm", shapes({{16, 1}, {}}, {"float", "Scalar"}))); // operand missing
    }

    void convolutions() {
        // conv2d input [8,3,32,32], weight [16,3,3,3], bias [16], stride 1, padding 1: output 32x32;
        // 2 * 8 * 16 * 1024 * 3 * 9 = 7077888 FLOPs; bytes (24576 + 432 + 131072 + 16) * 4 = 624384.
        const std::vector<std::vector<std::int64_t>> dims = {
            {8, 3, 32, 32}, {16, 3, 3, 3}, {16}, {}, {}, {}, {}};
        const std::vector<std::string> types = {"float", "float", "float", "", "", "", "Scalar"};
        OpCost c =
            costOf("aten::conv2d", shapes(dims, types, {"", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "1"}));
        QCOMPARE(c.family, OpFamily::Conv);
        QCOMPARE(c.flops, 7077888.0);
        QCOMPARE(c.bytes, 624384.0);
        QCOMPARE(c.peak, PeakType::Tf32); // cuDNN allows TF32 for FP32 convolutions by default
        // Without Concrete Inputs: stride 1, "same" padding: the same numbers.
        QCOMPARE(costOf("aten::conv2d", shapes(dims, types)).flops, 7077888.0);
        // stride 2, padding 1: output (32 + 2 - 2 - 1) / 2 + 1 = 16 -> 2*8*16*256*27 = 1769472.
        QCOMPARE(costOf("aten::conv2d", shapes(dims, types, {"", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "1"}))
                     .flops,
                 1769472.0);
        // convolution_backward(grad_out [8,16,32,32], input, weight): 2 x forward = 14155776 FLOPs;
        // bytes grad_out 524288 + 2 x input 196608 + 2 x weight 3456 = 724352.
        OpCost bw =
            costOf("aten::convolution_backward",
                   shapes({{8, 16, 32, 32}, {8, 3, 32, 32}, {16, 3, 3, 3}, {}, {}, {}, {}, {}, {}, {}, {}},
                          {"float", "float", "float", "", "", "", "", "", "", "", ""}));
        QCOMPARE(bw.flops, 14155776.0);
        QCOMPARE(bw.bytes, 724352.0);
    }

    void attention() {
        // q, k, v [2,8,128,64] bf16: 2 * 2*8 * 128*128 * (64 + 64) = 67108864 FLOPs, causal half:
        // 33554432; bytes q + k + v + out = 4 * (2*8*128*64 * 2) = 1048576.
        const std::vector<std::int64_t> q = {2, 8, 128, 64};
        auto fwd = [&](const char* causal) {
            return shapes({q, q, q, {}, {}, {}, {}},
                          {kBf16, kBf16, kBf16, "double", "bool", "bool", "double"},
                          {"", "", "", "0.0", causal, "False", ""});
        };
        OpCost f = costOf("aten::_scaled_dot_product_flash_attention", fwd("True"));
        QCOMPARE(f.family, OpFamily::Attention);
        QCOMPARE(f.flops, 33554432.0);
        QCOMPARE(f.bytes, 1048576.0);
        QCOMPARE(costOf("aten::_scaled_dot_product_flash_attention", fwd("False")).flops, 67108864.0);
        // Backward: 2.5 x the causal forward = 83886080; bytes 2 x (q + k + v) + 2 x out = 8 x 262144.
        std::vector<std::vector<std::int64_t>> bd = {q, q, q, q, q, {2, 8, 128}, {}, {}, {}, {}, {}, {}};
        std::vector<std::string> bt = {kBf16, kBf16, kBf16, kBf16, kBf16,    "float",
                                       "",    "",    "",    "",    "double", "bool"};
        std::vector<std::string> bc(12, "");
        bc[11] = "True";
        OpCost b = costOf("aten::_scaled_dot_product_flash_attention_backward", shapes(bd, bt, bc));
        QCOMPARE(b.flops, 83886080.0);
        QCOMPARE(b.bytes, 2097152.0);
        // _flash_attention_forward takes [batch, seq, heads, dim]: q [2,128,8,64] is the same problem.
        const std::vector<std::int64_t> bshd = {2, 128, 8, 64};
        OpCost fa = costOf("aten::_flash_attention_forward",
                           shapes({bshd, bshd, bshd, {}, {}, {}, {}, {}, {}}, {kBf16, kBf16, kBf16}));
        QCOMPARE(fa.flops, 67108864.0);
    }

    void elementwiseReductionsNorms() {
        // add [16,256] + [16,256] fp32: 4096 FLOPs; read 2 x 16384, write 16384 bytes = 49152.
        OpCost a = costOf("aten::add", shapes({{16, 256}, {16, 256}, {}}, {"float", "float", "Scalar"}));
        QCOMPARE(a.family, OpFamily::Elementwise);
        QCOMPARE(a.flops, 4096.0);
        QCOMPARE(a.bytes, 49152.0);
        QVERIFY(!a.matrix);
        // An op of no known family whose kernel is elementwise: the same rule.
        QVERIFY(!opCost("fbgemm::something", shapes({{16, 256}}, {"float"})));
        QCOMPARE(costOf("fbgemm::something", shapes({{16, 256}}, {"float"}), KernelClass::Elementwise).bytes,
                 32768.0); // read 16384 + write 16384
        // native_layer_norm([4,1024], normalized_shape, weight [1024], bias [1024], eps) bf16:
        // read 8192 + 2048 + 2048, write 8192 = 20480 bytes; 8 x 4096 = 32768 FLOPs.
        OpCost ln = costOf("aten::native_layer_norm",
                           shapes({{4, 1024}, {}, {1024}, {1024}, {}}, {kBf16, "", kBf16, kBf16, "double"}));
        QCOMPARE(ln.family, OpFamily::Reduction);
        QCOMPARE(ln.bytes, 20480.0);
        QCOMPARE(ln.flops, 32768.0);
        // sum([16,1]) fp32: read 64 bytes, a scalar result; 16 FLOPs.
        OpCost s = costOf("aten::sum", shapes({{16, 1}, {}, {}, {}}, {"float", "", "Scalar", ""}));
        QCOMPARE(s.bytes, 64.0);
        QCOMPARE(s.flops, 16.0);
        // _log_softmax([64, 1000]) bf16: read 128000, write 128000 = 256000; 5 x 64000 = 320000 FLOPs.
        OpCost ls = costOf("aten::_log_softmax", shapes({{64, 1000}, {}, {}}, {kBf16, "Scalar", "Scalar"}));
        QCOMPARE(ls.bytes, 256000.0);
        QCOMPARE(ls.flops, 320000.0);
        // nll_loss_forward(self [64,1000] bf16, target [64] int64): target 512 + 64 entries x 2 = 640.
        OpCost nl = costOf("aten::nll_loss_forward", shapes({{64, 1000}, {64}, {}, {}, {}},
                                                            {kBf16, "long int", "", "Scalar", "Scalar"}));
        QCOMPARE(nl.bytes, 640.0);
    }

    void embeddingsAndCopies() {
        // embedding(weight [1000,64] fp32, indices [32] int64): 2 x 32*64*4 + 32*8 = 16640 bytes, 0 FLOPs.
        OpCost e = costOf("aten::embedding", shapes({{1000, 64}, {32}}, {"float", "long int"}));
        QCOMPARE(e.family, OpFamily::Embedding);
        QCOMPARE(e.bytes, 16640.0);
        QCOMPARE(e.flops, 0.0);
        // index_select(self [1000,64] bf16, dim 0, index [32]): 2 x 32*64*2 + 256 = 8448.
        QCOMPARE(
            costOf("aten::index_select", shapes({{1000, 64}, {}, {32}}, {kBf16, "Scalar", "long int"})).bytes,
            8448.0);
        // embedding_dense_backward(grad [4,8,64] bf16, indices [4,8], num_weights 1000):
        // grad 4096 + indices 256 + table 1000*64*2 = 132352.
        QCOMPARE(
            costOf("aten::embedding_dense_backward",
                   shapes({{4, 8, 64}, {4, 8}, {}, {}, {}}, {kBf16, "long int", "Scalar", "Scalar", "Scalar"},
                          {"", "", "1000", "-1", "False"}))
                .bytes,
            132352.0);
        // copy_(dst [351] int64, src [351] int64): 351*8*2 = 5616; fill_ [16,27,27] fp32: 46656 written.
        OpCost c = costOf("aten::copy_", shapes({{351}, {351}, {}}, {"long int", "long int", "Scalar"}));
        QCOMPARE(c.family, OpFamily::Copy);
        QCOMPARE(c.bytes, 5616.0);
        QCOMPARE(costOf("aten::fill_", shapes({{16, 27, 27}, {}}, {"float", "Scalar"})).bytes, 46656.0);
        // A TensorList argument has no dims: no cost.
        QVERIFY(!opCost("aten::cat", shapes({{}, {}}, {"TensorList", "Scalar"})));
    }

    void kernelsShareTheirOpsCost() {
        // aten::mm [64,32] x [32,128] fp32 launches two kernels of 30 and 10 us: 2*64*32*128 = 524288
        // FLOPs, split 3/4 and 1/4. A device-to-device copy of 1000 bytes moves 2000 (read + write);
        // a host-to-device copy is the host link's; a kernel without a launch has no op.
        const char* trace =
            R"json({"deviceProperties":[{"id":0,"name":"NVIDIA H100 80GB HBM3","totalGlobalMem":85520809984,"numSms":132}],
"traceEvents":[
{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":50,"args":{"Input Dims":[[64,32],[32,128]],"Input type":["float","float"]}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1,"dur":5,"args":{"correlation":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":2}},
{"ph":"X","cat":"cpu_op","name":"aten::copy_","pid":1,"tid":1,"ts":60,"dur":20,"args":{"Input Dims":[[250],[250],[]],"Input type":["float","float","Scalar"]}},
{"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":61,"dur":5,"args":{"correlation":3}},
{"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":70,"dur":5,"args":{"correlation":4}},
{"ph":"X","cat":"kernel","name":"ampere_sgemm_128x64_nn","pid":0,"tid":7,"ts":20,"dur":30,"args":{"correlation":1,"stream":7,"device":0}},
{"ph":"X","cat":"kernel","name":"splitKreduce_kernel","pid":0,"tid":7,"ts":50,"dur":10,"args":{"correlation":2,"stream":7,"device":0}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoD (Device -> Device)","pid":0,"tid":7,"ts":70,"dur":2,"args":{"correlation":3,"stream":7,"device":0,"bytes":1000}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":7,"ts":80,"dur":2,"args":{"correlation":4,"stream":7,"device":0,"bytes":1000}},
{"ph":"X","cat":"kernel","name":"orphan_kernel","pid":0,"tid":7,"ts":90,"dur":2,"args":{"stream":7,"device":0}}
]})json";
        Rank rank = loadKinetoBytes(trace, "mini.json");
        auto costs = kernelCosts(rank);
        QCOMPARE(costs.size(), std::size_t(5));
        auto byName = [&](const char* n) -> const KernelCostEntry& {
            for (const auto& e : costs)
                if (rank.name(e.gpuOp) == n) return e;
            qFatal("no entry %s", n);
        };
        // The GEMM kernel (a cuBLAS name) carries the op's math; the op's other kernel is auxiliary.
        const auto& k1 = byName("ampere_sgemm_128x64_nn");
        const auto& k2 = byName("splitKreduce_kernel");
        QVERIFY(k1.known());
        QCOMPARE(rank.name(k1.op), std::string_view("aten::mm"));
        QCOMPARE(k1.cost.flops, 524288.0);
        QCOMPARE(k2.missing, CostMissing::Auxiliary);
        // When no kernel of the op is classed GEMM, they share it by duration: 3/4 and 1/4.
        KernelClassifier noGemm;
        noGemm.setPattern(KernelClass::Gemm, "no_such_kernel");
        auto shared = kernelCosts(rank, &noGemm);
        QCOMPARE(shared[0].cost.flops + shared[1].cost.flops, 524288.0);
        QCOMPARE(std::max(shared[0].cost.flops, shared[1].cost.flops), 524288.0 * 0.75);
        QCOMPARE(byName("Memcpy DtoD (Device -> Device)").cost.bytes, 2000.0);
        QCOMPARE(byName("Memcpy HtoD (Pageable -> Device)").missing, CostMissing::HostCopy);
        QCOMPARE(byName("orphan_kernel").missing, CostMissing::NoLaunch);
    }

    void realDlrmTraceHasCosts() {
        SL_REQUIRE_TRACES();
        // DLRM on V100 recorded with shapes: the compute kernels' launching ops are found, and the
        // first addmm of the bottom MLP is [16,13] x [13,256] (2*16*13*256 = 106496 FLOPs over its kernels).
        Rank rank = loadKinetoFile(
            sltest::tracePath("dlrm-8rank-v100/kineto/worker0_step_12.1694128201545.pt.trace.json"));
        auto costs = kernelCosts(rank);
        std::int64_t known = 0, launched = 0;
        double addmmFlops = 0;
        std::uint64_t firstAddmm = ~std::uint64_t{0};
        for (const auto& e : costs) {
            if (e.missing == CostMissing::NoLaunch || e.missing == CostMissing::HostCopy) continue;
            ++launched;
            known += e.known() ? 1 : 0;
            if (e.known() && e.op.valid() && rank.name(e.op) == "aten::addmm" &&
                rank.args(e.op).find("[16, 13]") != std::string_view::npos) {
                if (firstAddmm == ~std::uint64_t{0}) firstAddmm = e.op.packed();
                if (e.op.packed() == firstAddmm) addmmFlops += e.cost.flops;
            }
        }
        QVERIFY2(launched > 100, qPrintable(QString::number(launched)));
        QVERIFY2(known * 10 >= launched * 5,
                 qPrintable(QString("%1 of %2 with a cost").arg(known).arg(launched)));
        QCOMPARE(addmmFlops, 106496.0);
    }
};

QTEST_APPLESS_MAIN(TestKernelCost)
#include "test_KernelCost.moc"
