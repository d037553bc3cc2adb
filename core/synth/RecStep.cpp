// One step of a synthetic recommendation job (README: "Recommendation jobs"): the index all-to-all,
// the table-batched lookup, the pooled-embedding all-to-all, a dense MLP, and their backward. The
// lookups follow a ground-truth cost that the simulator does not see (its own model is calibrated
// on a trace, sim/EmbeddingWhatIf.h); the all-to-alls move what the plan makes each rank send.
#include "models/EmbeddingPlan.h"
#include "synth/RankBuilder.h"

namespace sl::synth::detail {

namespace {

constexpr const char* kTbeForward =
    "void split_embedding_codegen_forward_unweighted_kernel<float, float, float, false, long, 1ul, 8ul>("
    "at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>, int, "
    "at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>)";
constexpr const char* kTbeBackward =
    "void split_embedding_backward_codegen_sgd_unweighted_kernel_warp_per_row_1<float, float, float, 1ul, 8>("
    "at::GenericPackedTensorAccessor<float, 2ul, at::RestrictPtrTraits, long>, int, "
    "at::GenericPackedTensorAccessor<long, 1ul, at::RestrictPtrTraits, int>)";
constexpr const char* kSigmoid = "void at::native::vectorized_elementwise_kernel<4, "
                                 "at::native::sigmoid_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}, "
                                 "at::detail::Array<char*, 2> >(int, float, at::detail::Array<char*, 2>)";

// L2 of the generated GPUs (bytes).
double l2Bytes(const GpuSpec& gpu) {
    if (gpu.name.find("A100") != std::string::npos) return 40e6;
    if (gpu.name.find("MI300") != std::string::npos) return 256e6;
    return 50e6;
}

// The ground truth of a rank's lookups (us): what the real kernel would take, with constants the
// simulator's model does not know (a fraction of HBM reached, L2's effective size and bandwidth,
// a launch floor and a cost per table).
double truthLookupUs(const std::vector<TableShard>& shards, const EmbeddingTables& tables, const GpuSpec& gpu,
                     int rank, bool backward) {
    const double hbm = gpu.hbmGBps * 0.68, l2bw = gpu.hbmGBps * 2.4, cache = l2Bytes(gpu) * 0.75;
    double traffic = 0;
    for (const auto& s : shards)
        if (s.rank == rank)
            traffic += s.lookups * tables.tables[static_cast<std::size_t>(s.table)].rowBytes() * s.dimShare;
    double ns = 0;
    int count = 0;
    for (const auto& s : shards) {
        if (s.rank != rank) continue;
        ++count;
        const auto& tb = tables.tables[static_cast<std::size_t>(s.table)];
        const double rb = tb.rowBytes() * s.dimShare;
        const double rows = static_cast<double>(tb.rows) * s.rowShare;
        const double claim = traffic > 0 ? cache * s.lookups * rb / traffic : 0;
        const double hit = std::clamp(claim / (rows * rb), 0.0, 1.0);
        const double row = hit * rb / l2bw + (1 - hit) * rb / hbm;
        const double stream = (s.lookups * 8 + s.outputRows * rb) / hbm;
        ns += backward ? 2 * s.lookups * row + stream + s.lookups * rb / l2bw : s.lookups * row + stream;
    }
    return (backward ? 9.0 : 6.0) + 0.4 * count + ns / 1000.0;
}

} // namespace

void RankBuilder::recLookup(bool backward) {
    const auto& t = c_.recTables;
    const int W = c_.worldSize();
    const auto shards = planShards(c_.recPlan, t, W, t.batchPerRank);
    double us = truthLookupUs(shards, t, job_.gpu, p_.rank, backward);
    us *= rng_.spread(c_.jitter) * slow_ * gpuScale_;
    if (!backward) {
        // FBGEMM's lookup op with its tensors: weights, offsets and D_offsets per table, indices and
        // offsets per sample and table (every sample of the job for a model-parallel table).
        double tables = 0, weights = 0, lookups = 0, dims = 0;
        for (const auto& s : shards)
            if (s.rank == p_.rank) {
                const auto& tb = t.tables[static_cast<std::size_t>(s.table)];
                tables += 1;
                weights += static_cast<double>(tb.rows) * s.rowShare * tb.dim * s.dimShare;
                lookups += s.lookups;
                dims += tb.dim * s.dimShare;
            }
        const double samples = double(W) * double(t.batchPerRank);
        const std::string concrete = "[\"\", \"\", \"\", \"\", \"\", \"\", \"\", \"" +
                                     std::to_string(std::llround(dims)) + "\", \"\", \"\", \"\", \"\", \"\"]";
        begin("fbgemm::split_embedding_codegen_lookup_sgd_function", false, 6);
        shapeNext({{0},
                   {weights},
                   {0},
                   {0, 0},
                   {tables},
                   {tables},
                   {tables + 1},
                   {},
                   {},
                   {tables + 1},
                   {},
                   {lookups},
                   {tables * samples + 1}},
                  {"float", "float", "float", "float", "int", "long int", "int", "Scalar", "Scalar",
                   "long int", "Scalar", "long int", "long int"},
                  concrete.c_str());
        attachShapes();
        launch(StreamRole::Compute, kTbeForward, us, false, 1024, 256);
        end();
        return;
    }
    begin("autograd::engine::evaluate_function: SplitLookupFunction_sgd_OpBackward", false, 4);
    begin("SplitLookupFunction_sgd_OpBackward", false, 3);
    launch(StreamRole::Compute, kTbeBackward, us, false, 1024, 256);
    end();
    end();
}

void RankBuilder::recExchange(const char* range, CommKind kind, double peakBytes, const char* dtype,
                              int bytesPerElem) {
    const int group = groups_.dpOf[self()];
    const auto& ranks = job_.groups[static_cast<std::size_t>(group)].ranks;
    // Every rank moves at most `peakBytes` each way; the exchange ends with the busiest one.
    const double transfer = collectiveTimeUs(c_, CommKind::Send, peakBytes, ranks);
    begin(range, true, 4);
    waitWork(comm(kind, std::max<std::int64_t>(1, std::llround(peakBytes / bytesPerElem)), dtype, group, -1,
                  transfer));
    end();
}

void RankBuilder::recommendationStep() {
    const auto& t = c_.recTables;
    const int W = c_.worldSize();
    const auto shards = planShards(c_.recPlan, t, W, t.batchPerRank);
    const double B = double(t.batchPerRank), H = c_.recMlpHidden;
    pyGap(20);
    begin("## forward ##", true, 5);
    recExchange("## all2all_data:kjt values ##", CommKind::AllToAll,
                indexExchange(shards, t, W, t.batchPerRank).peak(), "Long", 8);
    recLookup(false);
    for (int l = 0; l < c_.recMlpLayers; ++l)
        linear(B, H, H); // bottom MLP
    const double pooled = pooledExchange(shards, t, W, t.batchPerRank).peak();
    recExchange("## alltoall_fwd_single ##", CommKind::AllToAll, pooled, "Float", 4);
    for (int l = 0; l < c_.recMlpLayers; ++l)
        linear(B, H, H); // interaction and top MLP
    elementwise("aten::sigmoid", nullptr, kSigmoid, B * H, 2);
    end();
    pyGap(20);
    begin("## backward ##", true, 5);
    for (int l = 0; l < c_.recMlpLayers; ++l)
        linearBackward("AddmmBackward0", B, H, H);
    recExchange("## alltoall_bwd_single ##", CommKind::AllToAll, pooled, "Float", 4);
    recLookup(true);
    for (int l = 0; l < c_.recMlpLayers; ++l)
        linearBackward("AddmmBackward0", B, H, H);
    end();
    // The dense part is data parallel: its gradients all-reduced, then the optimizer.
    const double params = 2.0 * c_.recMlpLayers * H * H;
    begin("## dense_allreduce ##", true, 4);
    waitWork(comm(CommKind::AllReduce, static_cast<std::int64_t>(params), "Float", groups_.dpOf[self()], -1));
    end();
    begin("Optimizer.step#SGD.step", true, 8);
    kernel(KernelClass::Elementwise, kAdam, params * 4, params * 12, params);
    end();
}

} // namespace sl::synth::detail
