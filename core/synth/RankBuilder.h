#pragma once
// The rank builder of the synthetic job (Builder.cpp): what one rank's CPU thread calls, in order,
// and the GPU ops it launches with their durations. Shared by Builder.cpp (the transformer step)
// and RecStep.cpp (the recommendation step); internal to core/synth.
#include "synth/Generator.h"
#include "synth/JobGroups.h"
#include "synth/KernelNames.h"
#include "synth/Program.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace sl::synth::detail {

// splitmix64: a small, portable, deterministic generator (std distributions differ by library).
struct Rng {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0); } // [0,1)
    double spread(double j) { return 1.0 + j * (2.0 * uniform() - 1.0); }
};

inline Ns usToNs(double us) {
    return std::max<Ns>(1, static_cast<Ns>(std::llround(us * 1000.0)));
}

inline int dtypeBytes(const char* dtype) {
    return std::string(dtype) == "Float" ? 4 : 2;
}

class RankBuilder {
public:
    RankBuilder(Job& job, const Groups& groups, std::unordered_map<std::uint64_t, int>& collIndex, int rank)
        : job_(job), c_(job.config), groups_(groups), collIndex_(collIndex),
          p_(job.programs[static_cast<std::size_t>(rank)]), coord_(rankCoord(job.config, rank)) {
        p_.rank = rank;
        rng_.state = c_.seed * std::uint64_t{0x9e3779b97f4a7c15} +
                     static_cast<std::uint64_t>(rank) * std::uint64_t{0x632be59bd9b4e019} + 1;
        slow_ = rank == c_.stragglerRank ? c_.stragglerSlowdown : 1.0;
        // Variants scale the drawn durations; they never draw themselves (README: "Variants").
        host_ = (rank == c_.cpuSlowRank ? c_.cpuSlowdown : 1.0) / c_.cpuSpeedup / c_.hostDispatchSpeedup;
        compute_ = (rank == c_.cpuSlowRank ? c_.cpuSlowdown : 1.0) / c_.cpuSpeedup / c_.hostComputeSpeedup;
        Rng rankRng{c_.seed * std::uint64_t{0xd1b54a32d192ed03} +
                    static_cast<std::uint64_t>(rank) * std::uint64_t{0x8cb92ba72f3d8dd7}};
        gpuScale_ = (1.0 + c_.rankSpread * (2.0 * rankRng.uniform() - 1.0)) / c_.gpuSpeedup;
        groupSeq_.assign(job.groups.size(), 0);
        lastOp_.fill(-1);
        for (std::size_t g = 0; g < job.groups.size(); ++g)
            if (std::find(job.groups[g].ranks.begin(), job.groups[g].ranks.end(), rank) !=
                job.groups[g].ranks.end())
                p_.groups.push_back(static_cast<int>(g));
    }

    void build() {
        const int stages = c_.pp, stage = coord_.pp;
        auto order = oneFOneBSchedule(stages, stage, c_.microbatches);
        for (int step = 0; step < c_.steps; ++step) {
            begin("ProfilerStep#" + std::to_string(step + 1), true, 6);
            if (c_.dataLoaderUs > 0) {
                // In-process loading takes the whole load time; a warm worker pool hands over a
                // batch it made while the previous step ran.
                constexpr double kQueueFetchUs = 20;
                begin(c_.dataWorkers > 0 ? "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"
                                         : "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
                      true, 0);
                p_.actions.back().cost =
                    usToNs(c_.dataWorkers > 0 ? kQueueFetchUs * host_ : c_.dataLoaderUs * compute_);
                if (c_.dataWorkers > 0) batchWait();
                if (c_.dataMainUs > 0) {
                    begin("aten::pin_memory", false, 0);
                    p_.actions.back().cost = usToNs(c_.dataMainUs * compute_);
                    end();
                }
                end();
            }
            if (c_.recommendation()) {
                recommendationStep(); // RecStep.cpp
            } else {
                for (int item : order) {
                    if (item >= 0)
                        forward(item);
                    else
                        backward(-item - 1);
                }
                finishGradients();
                optimizer();
            }
            lossItem();
            end();
            pyGap(30);
        }
    }

private:
    // One step of a recommendation job (RecStep.cpp, README: "Recommendation jobs").
    void recommendationStep();
    void recLookup(bool backward);
    void recExchange(const char* range, CommKind kind, double peakBytes, const char* dtype, int bytesPerElem);

    // This rank as an index into the per-rank group tables.
    std::size_t self() const { return static_cast<std::size_t>(p_.rank); }

    // --- CPU side -----------------------------------------------------------------------------------
    Ns cpu(double us) { return usToNs(us * rng_.spread(0.15) * host_); }
    void pyGap(double us) {
        if (!c_.pythonStacks) {
            pendingGap_ += cpu(us);
            return;
        }
        // The same draw, as a python_function range that ends where the next call begins.
        begin("torch/nn/modules/module.py(1527): _call_impl", false, us);
        p_.actions.back().python = true;
        Action a;
        a.kind = ActKind::End;
        a.thread = thread_;
        externalStack_.pop_back();
        open_.pop_back();
        p_.actions.push_back(a);
    }

    void begin(const std::string& name, bool annotation = false, double costUs = 3, int comm = -1) {
        Action a;
        a.kind = ActKind::Begin;
        a.annotation = annotation;
        a.thread = thread_;
        a.name = p_.intern(name);
        a.gap = pendingGap_;
        a.cost = cpu(costUs);
        pendingGap_ = 0;
        a.ref = comm;
        a.externalId = nextExternal_++;
        externalStack_.push_back(a.externalId);
        open_.push_back(p_.actions.size());
        p_.actions.push_back(a);
    }
    void end() {
        Action a;
        a.kind = ActKind::End;
        a.thread = thread_;
        a.cost = cpu(1.0);
        externalStack_.pop_back();
        open_.pop_back();
        p_.actions.push_back(a);
    }
    // record_shapes: the shapes of the op whose kernel is launched next (README: "Variants"); a
    // dims list per argument ({} for a scalar) and PyTorch's type names.
    void shapeNext(const std::vector<std::vector<double>>& dims, const std::vector<const char*>& types,
                   const char* concrete = nullptr) {
        if (!c_.recordShapes) return;
        std::string s = "\"Input Dims\": [";
        for (std::size_t i = 0; i < dims.size(); ++i) {
            s += i ? ", [" : "[";
            for (std::size_t k = 0; k < dims[i].size(); ++k)
                s += (k ? ", " : "") + std::to_string(std::llround(dims[i][k]));
            s += "]";
        }
        s += "], \"Input type\": [";
        for (std::size_t i = 0; i < types.size(); ++i)
            s += std::string(i ? ", \"" : "\"") + types[i] + "\"";
        s += "]";
        if (concrete) s += std::string(", \"Concrete Inputs\": ") + concrete;
        pendingShapes_ = std::move(s);
    }
    // Gives the pending shapes to the innermost open op (the one launching the kernel).
    void attachShapes() {
        if (pendingShapes_.empty() || open_.empty()) return;
        p_.actions[open_.back()].shapes = static_cast<std::int32_t>(p_.shapes.size());
        p_.shapes.push_back(std::move(pendingShapes_));
        pendingShapes_.clear();
    }
    // The main thread waits for the worker pool's next batch (Timeline.cpp). The pool makes a batch
    // every load / workers while the workers and the main thread fit in the cores; beyond that the
    // scheduler shares the cores equally among them, so each worker runs at cores / (workers + 1).
    void batchWait() {
        Action a;
        a.kind = ActKind::BatchWait;
        a.thread = thread_;
        p_.actions.push_back(a);
        const double n = c_.dataWorkers;
        const double cores = c_.dataCores > 0 && n + 1 > c_.dataCores ? n * c_.dataCores / (n + 1) : n;
        p_.batchInterval = static_cast<Ns>(std::llround(c_.dataLoaderUs * compute_ * 1000.0 / cores));
    }
    Action& call(ActKind kind, const char* name, double costUs) {
        Action a;
        a.kind = kind;
        a.thread = thread_;
        a.name = p_.intern(name);
        a.gap = pendingGap_;
        a.cost = cpu(costUs);
        pendingGap_ = 0;
        a.correlation = nextCorrelation_;
        nextCorrelation_ += 1 + static_cast<std::int64_t>(rng_.next() % 4); // other CUPTI records in between
        a.externalId = externalStack_.empty() ? 0 : externalStack_.back();
        p_.actions.push_back(a);
        return p_.actions.back();
    }

    std::int32_t launch(StreamRole s, const std::string& kernel, double durUs, bool isComm = false,
                        int grid = 1, int block = 128, bool memcpy = false) {
        GpuOp op;
        op.name = p_.intern(kernel);
        op.stream = static_cast<std::uint8_t>(s);
        op.memcpy = memcpy;
        op.duration = usToNs(durUs);
        op.grid = grid;
        op.block = block;
        auto& pending = pendingDeps_[static_cast<int>(s)];
        op.deps = std::move(pending);
        pending.clear();
        auto index = static_cast<std::int32_t>(p_.ops.size());
        const char* api = memcpy ? "cudaMemcpyAsync" : isComm ? "cudaLaunchKernelExC" : "cudaLaunchKernel";
        Action& a = call(ActKind::Launch, api, memcpy ? 6 : isComm ? 8 : 4.5);
        a.gpuOp = index;
        op.launchAction = static_cast<std::int32_t>(p_.actions.size() - 1);
        p_.ops.push_back(std::move(op));
        lastOp_[static_cast<int>(s)] = index;
        return index;
    }
    std::int32_t record(StreamRole s) {
        Action& a = call(ActKind::EventRecord, "cudaEventRecord", 1.5);
        a.stream = static_cast<std::uint8_t>(s);
        a.gpuOp = lastOp_[static_cast<int>(s)];
        return static_cast<std::int32_t>(p_.actions.size() - 1);
    }
    void wait(StreamRole s, std::int32_t recordAction) {
        Action& a = call(ActKind::StreamWait, "cudaStreamWaitEvent", 1.5);
        a.stream = static_cast<std::uint8_t>(s);
        a.ref = recordAction;
        std::int32_t op = p_.actions[static_cast<std::size_t>(recordAction)].gpuOp;
        if (op >= 0) pendingDeps_[static_cast<int>(s)].push_back(op);
    }

    // The running thread wakes `to` (autograd's engine thread, or the main thread when backward
    // is done) and waits for it: `to` starts after a wake-up latency, which no CPU op covers.
    void handoff(std::uint8_t to) {
        Action a;
        a.kind = ActKind::Handoff;
        a.thread = to;
        a.gap = pendingGap_;
        a.cost = usToNs(12 * rng_.spread(0.15));
        pendingGap_ = 0;
        p_.actions.push_back(a);
        thread_ = to;
    }

    // --- kernels ------------------------------------------------------------------------------------
    double kernelUs(KernelClass cls, double flops, double bytes) {
        return kernelTimeUs(job_.gpu, cls, flops, bytes) * rng_.spread(c_.jitter) * slow_ * gpuScale_ /
               c_.classSpeedup[static_cast<int>(cls)];
    }
    void kernel(KernelClass cls, const char* name, double flops, double bytes, double elements) {
        attachShapes();
        int grid = static_cast<int>(std::clamp(elements / 1024.0, 1.0, 65535.0));
        launch(StreamRole::Compute, name, kernelUs(cls, flops, bytes), false, grid,
               cls == KernelClass::Gemm ? 384 : 128);
    }
    void gemm(double m, double n, double k, bool nt = false) {
        attachShapes();
        double flops = 2 * m * n * k, bytes = 2 * (m * k + k * n + m * n);
        int grid = static_cast<int>(std::clamp(std::ceil(m / 128) * std::ceil(n / 256), 1.0, 65535.0));
        launch(StreamRole::Compute, gemmKernel(job_.gpu, nt), kernelUs(KernelClass::Gemm, flops, bytes),
               false, grid, 384);
    }
    void op(const char* outer, const char* inner, KernelClass cls, const char* name, double flops,
            double bytes, double elements) {
        begin(outer);
        if (inner) begin(inner, false, 2);
        kernel(cls, name, flops, bytes, elements);
        if (inner) end();
        end();
    }
    void linear(double m, double n, double k) {
        begin("aten::linear");
        begin("aten::addmm", false, 2.5);
        shapeNext({{n}, {m, k}, {k, n}, {}, {}}, {kBf16, kBf16, kBf16, "Scalar", "Scalar"});
        gemm(m, n, k);
        end();
        end();
    }
    void linearBackward(const char* fn, double m, double n, double k) {
        begin(std::string("autograd::engine::evaluate_function: ") + fn, false, 4);
        begin(fn, false, 2);
        begin("aten::mm", false, 2);
        shapeNext({{m, n}, {n, k}}, {kBf16, kBf16});
        gemm(m, k, n, false); // dgrad: [m,n] x [n,k]
        end();
        begin("aten::mm", false, 2);
        shapeNext({{n, m}, {m, k}}, {kBf16, kBf16});
        gemm(n, k, m, true); // wgrad: [n,m] x [m,k]
        end();
        end();
        end();
    }
    void elementwise(const char* outer, const char* inner, const char* name, double elements, int tensors) {
        op(outer, inner, KernelClass::Elementwise, name, elements, elements * 2 * tensors, elements);
    }
    void gradFn(const char* fn, const char* aten, KernelClass cls, const char* name, double flops,
                double bytes, double elements) {
        begin(std::string("autograd::engine::evaluate_function: ") + fn, false, 4);
        op(fn, aten, cls, name, flops, bytes, elements);
        end();
    }

    // --- communication ------------------------------------------------------------------------------
    StreamRole commStream(CommKind k, int group) const {
        if (k == CommKind::Send) return StreamRole::PpSend;
        if (k == CommKind::Recv) return StreamRole::PpRecv;
        return job_.groups[static_cast<std::size_t>(group)].desc == "tp" ? StreamRole::Tp : StreamRole::Dp;
    }
    // A c10d call as ProcessGroupNCCL issues it: the NCCL stream waits for the compute stream, the
    // kernel runs on the NCCL stream, an end event is recorded; returns that record action.
    // transferUs >= 0: the collective's transfer time, as the caller modelled it (all-to-alls).
    std::int32_t comm(CommKind kind, std::int64_t nelems, const char* dtype, int group, int peer,
                      double transferUs = -1) {
        const auto& g = job_.groups[static_cast<std::size_t>(group)];
        CommMeta meta{kind, nelems, dtype, group, peer};
        auto metaIndex = static_cast<int>(p_.comms.size());
        p_.comms.push_back(meta);
        StreamRole s = commStream(kind, group);
        const char* c10d = kind == CommKind::AllReduce   ? "c10d::allreduce_"
                           : kind == CommKind::Send      ? "c10d::send"
                           : kind == CommKind::Recv      ? "c10d::recv_"
                           : kind == CommKind::AllGather ? "c10d::_allgather_base_"
                           : kind == CommKind::AllToAll  ? "c10d::alltoall_base_"
                                                         : "c10d::_reduce_scatter_base_";
        begin(c10d, false, 6);
        begin("record_param_comms", false, 4, metaIndex);
        std::int32_t syncRecord = record(StreamRole::Compute);
        wait(s, syncRecord);
        begin(std::string("nccl:") + (kind == CommKind::AllReduce ? "all_reduce" : collectiveName(kind)),
              true, 3);
        auto gs = static_cast<int>(g.ranks.size());
        std::int32_t opIndex = launch(s, ncclKernelName(kind, dtype, c_, gs), 0, true,
                                      kind == CommKind::Send || kind == CommKind::Recv ? 1 : 16, 544);
        p_.ops[static_cast<std::size_t>(opIndex)].comm = metaIndex;
        end();
        std::int32_t endRecord = record(s);
        end();
        end();
        // Match the k-th call of this group on every member.
        std::uint64_t key = (static_cast<std::uint64_t>(group) << 32) |
                            static_cast<std::uint64_t>(groupSeq_[static_cast<std::size_t>(group)]++);
        auto [it, inserted] = collIndex_.emplace(key, static_cast<int>(job_.collectives.size()));
        if (inserted) {
            CollectiveDef def;
            def.group = group;
            double bytes = static_cast<double>(nelems) * dtypeBytes(dtype);
            def.transfer =
                usToNs(transferUs >= 0 ? transferUs
                                       : collectiveTimeUs(c_, kind == CommKind::Recv ? CommKind::Send : kind,
                                                          bytes, g.ranks));
            job_.collectives.push_back(std::move(def));
        }
        auto& def = job_.collectives[static_cast<std::size_t>(it->second)];
        def.members.emplace_back(p_.rank, opIndex);
        p_.ops[static_cast<std::size_t>(opIndex)].collective = it->second;
        if (!c_.commOverlap) waitWork(endRecord); // nothing runs beside a collective
        return endRecord;
    }
    // work.wait(): the compute stream waits for the end event (CPU does not block).
    void waitWork(std::int32_t endRecord) {
        begin("c10d::wait", false, 2);
        wait(StreamRole::Compute, endRecord);
        end();
    }
    void tpAllReduce(const char* where) {
        if (c_.tp == 1) return;
        double tokens = double(c_.microbatch) * c_.seq;
        begin(where, false, 3);
        waitWork(comm(CommKind::AllReduce, static_cast<std::int64_t>(tokens * c_.hidden), "BFloat16",
                      groups_.tpOf[self()], -1));
        end();
    }
    std::int64_t activationElems() const { return std::int64_t(c_.microbatch) * c_.seq * c_.hidden; }
    // Sequence parallelism (README: "Variants"): between the tensor-parallel regions activations
    // are split along the sequence; an all-gather enters a region, a reduce-scatter leaves it.
    bool sequenceParallel() const { return c_.sequenceParallel && c_.tp > 1; }
    void tpGather(const char* where) {
        if (!sequenceParallel()) return;
        const int group = groups_.tpOf[self()];
        const double us = collectiveTimeUs(c_, CommKind::AllGather, double(activationElems()) * 2,
                                           job_.groups[static_cast<std::size_t>(group)].ranks);
        begin(where, false, 3);
        waitWork(comm(CommKind::AllGather, activationElems() / c_.tp, "BFloat16", group, -1, us));
        end();
    }
    void tpReduce(const char* where) {
        if (!sequenceParallel()) return tpAllReduce(where);
        begin(where, false, 3);
        waitWork(comm(CommKind::ReduceScatter, activationElems(), "BFloat16", groups_.tpOf[self()], -1));
        end();
    }

    // --- the model ----------------------------------------------------------------------------------
    void forward(int mb) {
        const double T = double(c_.microbatch) * c_.seq, H = c_.hidden, t = c_.tp;
        const double B = c_.microbatch, S = c_.seq, h = double(c_.heads) / t, D = H / c_.heads;
        const int stage = coord_.pp;
        auto layerNormShapes = [&] {
            shapeNext({{B, S, H}, {}, {H}, {H}, {}}, {kBf16, "", kBf16, kBf16, "double"});
        };
        // Inside the layers: the sequence-split activations with sequence parallelism.
        const double Ss = sequenceParallel() ? S / t : S, Ts = B * Ss;
        auto seqNormShapes = [&] {
            shapeNext({{B, Ss, H}, {}, {H}, {H}, {}}, {kBf16, "", kBf16, kBf16, "double"});
        };
        auto seqAddShapes = [&] { shapeNext({{B, Ss, H}, {B, Ss, H}, {}}, {kBf16, kBf16, "Scalar"}); };
        pyGap(20);
        begin("forward_step#" + std::to_string(mb), true, 5);
        if (stage > 0)
            waitWork(comm(CommKind::Recv, activationElems(), "BFloat16", groups_.ppFwdIn[self()], -1));
        if (stage == 0)
            shapeNext({{double(c_.vocab) / t, H}, {}, {T}}, {kBf16, "Scalar", "long int"},
                      "[\"\", \"0\", \"\"]");
        if (stage == 0)
            op("aten::embedding", "aten::index_select", KernelClass::DataMovement, kEmbedding, 0, T * H * 4,
               T * H);
        const int stageLayers = c_.layersOfStage(stage);
        for (int l = 0; l < stageLayers; ++l) {
            pyGap(8);
            seqNormShapes();
            op("aten::layer_norm", "aten::native_layer_norm", KernelClass::Reduction, kLayerNormFwd,
               8 * Ts * H, Ts * H * 4, Ts * H);
            tpGather("_GatherFromSequenceParallelRegion");
            linear(T, 3 * H / t, H);
            begin("aten::scaled_dot_product_attention");
            begin("aten::_scaled_dot_product_flash_attention", false, 3);
            shapeNext({{B, h, S, D}, {B, h, S, D}, {B, h, S, D}, {}, {}, {}, {}},
                      {kBf16, kBf16, kBf16, "double", "bool", "bool", "double"},
                      "[\"\", \"\", \"\", \"0.0\", \"True\", \"False\", \"\"]");
            kernel(KernelClass::Attention, kFlashFwd, 2.0 * T * c_.seq * H / t, T * H / t * 2 * 4, T * H / t);
            end();
            end();
            linear(T, H, H / t);
            tpReduce("_ReduceFromModelParallelRegion");
            seqAddShapes();
            elementwise("aten::add", nullptr, kAdd, Ts * H, 3);
            seqNormShapes();
            op("aten::layer_norm", "aten::native_layer_norm", KernelClass::Reduction, kLayerNormFwd,
               8 * Ts * H, Ts * H * 4, Ts * H);
            tpGather("_GatherFromSequenceParallelRegion");
            linear(T, 4 * H / t, H);
            shapeNext({{B, S, 4 * H / t}, {}}, {kBf16, ""});
            elementwise("aten::gelu", nullptr, kGelu, T * 4 * H / t, 2);
            linear(T, H, 4 * H / t);
            tpReduce("_ReduceFromModelParallelRegion");
            seqAddShapes();
            elementwise("aten::add", nullptr, kAdd, Ts * H, 3);
            // `.item()` after evenly spaced layers: the host waits for everything launched so far.
            if (c_.itemSyncs > 0 && (l + 1) * c_.itemSyncs / stageLayers != l * c_.itemSyncs / stageLayers) {
                pyGap(6);
                item();
            }
        }
        if (stage == c_.pp - 1) {
            const double V = double(c_.vocab) / t;
            layerNormShapes();
            op("aten::layer_norm", "aten::native_layer_norm", KernelClass::Reduction, kLayerNormFwd,
               8 * T * H, T * H * 4, T * H);
            linear(T, V, H);
            begin("aten::cross_entropy_loss");
            shapeNext({{T, V}, {}, {}}, {kBf16, "Scalar", "Scalar"});
            op("aten::log_softmax", "aten::_log_softmax", KernelClass::Reduction, kSoftmax, 4 * T * V,
               T * V * 4, T * V);
            shapeNext({{T, V}, {T}, {}, {}, {}}, {kBf16, "long int", "", "Scalar", "Scalar"});
            op("aten::nll_loss_nd", "aten::nll_loss_forward", KernelClass::Reduction, kNll, T, T * 8, T);
            end();
        }
        if (stage < c_.pp - 1)
            comm(CommKind::Send, activationElems(), "BFloat16", groups_.ppFwdOut[self()], -1);
        end();
    }

    void backward(int mb) {
        const double T = double(c_.microbatch) * c_.seq, H = c_.hidden, t = c_.tp;
        const int stage = coord_.pp;
        const bool syncGrads = c_.dp > 1 && mb == c_.microbatches - 1;
        const StageParams params = stageParams(c_, stage);
        const double B = c_.microbatch, S = c_.seq, h = double(c_.heads) / t, D = H / c_.heads;
        auto layerNormBwdShapes = [&] {
            shapeNext({{B, S, H}, {B, S, H}, {}, {B, S, 1}, {B, S, 1}, {H}, {H}, {}},
                      {kBf16, kBf16, "", "float", "float", kBf16, kBf16, ""});
        };
        const double Ss = sequenceParallel() ? S / t : S, Ts = B * Ss;
        auto seqNormBwdShapes = [&] {
            shapeNext({{B, Ss, H}, {B, Ss, H}, {}, {B, Ss, 1}, {B, Ss, 1}, {H}, {H}, {}},
                      {kBf16, kBf16, "", "float", "float", kBf16, kBf16, ""});
        };
        auto seqAddShapes = [&] { shapeNext({{B, Ss, H}, {B, Ss, H}, {}}, {kBf16, kBf16, "Scalar"}); };
        pyGap(20);
        begin("backward_step#" + std::to_string(mb), true, 5);
        if (stage < c_.pp - 1)
            waitWork(comm(CommKind::Recv, activationElems(), "BFloat16", groups_.ppBwdIn[self()], -1));
        if (c_.backwardThread) {
            // torch.autograd.backward: the seed gradient on the main thread, then autograd's engine
            // thread runs every gradient function (and DDP's hooks) while the main thread waits.
            if (stage == c_.pp - 1) shapeNext({{}, {}}, {"float", "Scalar"});
            if (stage == c_.pp - 1)
                op("aten::ones_like", "aten::fill_", KernelClass::DataMovement, kFill, 0, 4, 1);
            end();
            handoff(1);
        }
        if (stage == c_.pp - 1) {
            const double V = double(c_.vocab) / t;
            shapeNext({{}, {T, V}, {T}, {}, {}, {}, {}},
                      {kBf16, kBf16, "long int", "", "Scalar", "Scalar", "float"});
            gradFn("NllLossBackward0", "aten::nll_loss_backward", KernelClass::Reduction, kNllBwd, T, T * 8,
                   T);
            shapeNext({{T, V}, {T, V}, {}, {}}, {kBf16, kBf16, "Scalar", "Scalar"});
            gradFn("LogSoftmaxBackward0", "aten::_log_softmax_backward_data", KernelClass::Reduction,
                   kSoftmaxBwd, 3 * T * V, T * V * 6, T * V);
            linearBackward("AddmmBackward0", T, V, H);
            if (syncGrads) addGrad(params.head);
            layerNormBwdShapes();
            gradFn("NativeLayerNormBackward0", "aten::native_layer_norm_backward", KernelClass::Reduction,
                   kLayerNormBwd, 12 * T * H, T * H * 8, T * H);
        }
        for (int l = c_.layersOfStage(stage) - 1; l >= 0; --l) {
            pyGap(8);
            tpGather("autograd::engine::evaluate_function: _ScatterToSequenceParallelRegionBackward");
            linearBackward("AddmmBackward0", T, H, 4 * H / t);
            shapeNext({{B, S, 4 * H / t}, {B, S, 4 * H / t}, {}}, {kBf16, kBf16, ""});
            gradFn("GeluBackward0", "aten::gelu_backward", KernelClass::Elementwise, kGeluBwd,
                   8 * T * 4 * H / t, T * 4 * H / t * 6, T * 4 * H / t);
            linearBackward("AddmmBackward0", T, 4 * H / t, H);
            tpReduce("autograd::engine::evaluate_function: _CopyToModelParallelRegionBackward");
            seqNormBwdShapes();
            gradFn("NativeLayerNormBackward0", "aten::native_layer_norm_backward", KernelClass::Reduction,
                   kLayerNormBwd, 12 * Ts * H, Ts * H * 8, Ts * H);
            seqAddShapes();
            gradFn("AddBackward0", "aten::add", KernelClass::Elementwise, kAdd, Ts * H, Ts * H * 6, Ts * H);
            tpGather("autograd::engine::evaluate_function: _ScatterToSequenceParallelRegionBackward");
            linearBackward("AddmmBackward0", T, H, H / t);
            shapeNext({{B, h, S, D},
                       {B, h, S, D},
                       {B, h, S, D},
                       {B, h, S, D},
                       {B, h, S, D},
                       {B, h, S},
                       {},
                       {},
                       {},
                       {},
                       {},
                       {},
                       {},
                       {},
                       {}},
                      {kBf16, kBf16, kBf16, kBf16, kBf16, "float", "", "", "Scalar", "Scalar", "double",
                       "bool", "long int", "long int", "double"},
                      "[\"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"\", \"0.0\", "
                      "\"True\", \"\", \"\", \"\"]");
            gradFn("ScaledDotProductFlashAttentionBackward0",
                   "aten::_scaled_dot_product_flash_attention_backward", KernelClass::Attention, kFlashBwd,
                   5.0 * T * c_.seq * H / t, T * H / t * 2 * 8, T * H / t);
            linearBackward("AddmmBackward0", T, 3 * H / t, H);
            tpReduce("autograd::engine::evaluate_function: _CopyToModelParallelRegionBackward");
            seqNormBwdShapes();
            gradFn("NativeLayerNormBackward0", "aten::native_layer_norm_backward", KernelClass::Reduction,
                   kLayerNormBwd, 12 * Ts * H, Ts * H * 8, Ts * H);
            seqAddShapes();
            gradFn("AddBackward0", "aten::add", KernelClass::Elementwise, kAdd, Ts * H, Ts * H * 6, Ts * H);
            if (syncGrads) addGrad(params.perLayer);
        }
        if (stage == 0) {
            const std::string concrete =
                "[\"\", \"\", \"" + std::to_string(c_.vocab / c_.tp) + "\", \"-1\", \"False\"]";
            shapeNext({{B, S, H}, {B, S}, {}, {}, {}}, {kBf16, "long int", "Scalar", "Scalar", "Scalar"},
                      concrete.c_str());
            gradFn("EmbeddingBackward0", "aten::embedding_dense_backward", KernelClass::DataMovement,
                   kEmbeddingBwd, 0, T * H * 4 + double(c_.vocab) / t * H * 4, T * H);
            if (syncGrads) addGrad(params.embedding);
        }
        if (syncGrads && bucket_ > 0) flushBucket();
        if (c_.backwardThread) {
            if (syncGrads) finishGradients(); // DDP's final callback runs on the engine thread
            pyGap(4);
            handoff(0);
            if (stage > 0) comm(CommKind::Send, activationElems(), "BFloat16", groups_.ppBwdOut[self()], -1);
            return;
        }
        if (stage > 0) comm(CommKind::Send, activationElems(), "BFloat16", groups_.ppBwdOut[self()], -1);
        end();
    }

    // DistributedDataParallel: a full bucket is all-reduced on the DP stream at once, overlapping
    // the rest of the backward pass.
    void addGrad(std::int64_t n) {
        bucket_ += n;
        if (bucket_ >= bucketCapElements(c_)) flushBucket();
    }
    void flushBucket() {
        begin("DistributedDataParallel.reduce_bucket#" + std::to_string(dpRecords_.size()), true, 4);
        dpRecords_.push_back(comm(CommKind::AllReduce, bucket_, "Float", groups_.dpOf[self()], -1));
        end();
        bucket_ = 0;
    }
    void finishGradients() {
        if (dpRecords_.empty()) return;
        begin("DistributedDataParallel.finalize_backward", true, 5);
        for (auto r : dpRecords_)
            waitWork(r);
        end();
        dpRecords_.clear();
    }
    void optimizer() {
        StageParams s = stageParams(c_, coord_.pp);
        double params =
            double(s.perLayer) * c_.layersOfStage(coord_.pp) + double(s.embedding) + double(s.head);
        pyGap(40);
        begin("Optimizer.step#AdamW.step", true, 10);
        begin("aten::_fused_adamw_", false, 8);
        int chunks = static_cast<int>(std::clamp(std::ceil(params / 50e6), 1.0, 8.0));
        for (int i = 0; i < chunks; ++i)
            kernel(KernelClass::Elementwise, kAdam, params / chunks * 12, params / chunks * 28,
                   params / chunks);
        end();
        end();
        begin("Optimizer.zero_grad#AdamW.zero_grad", true, 6);
        end();
    }
    void lossItem() {
        pyGap(15);
        item();
    }
    void item() {
        begin("aten::item", false, 3);
        begin("aten::_local_scalar_dense", false, 3);
        launch(StreamRole::Compute, "Memcpy DtoH (Device -> Pageable)", 2.0, false, 1, 1, true);
        Action& a = call(ActKind::StreamSync, "cudaStreamSynchronize", 3);
        a.stream = static_cast<std::uint8_t>(StreamRole::Compute);
        a.gpuOp = lastOp_[static_cast<int>(StreamRole::Compute)];
        end();
        end();
    }

    Job& job_;
    const SynthConfig& c_;
    const Groups& groups_;
    std::unordered_map<std::uint64_t, int>& collIndex_;
    Program& p_;
    RankCoord coord_;
    Rng rng_{0};
    double slow_ = 1.0;
    double host_ = 1.0;     // CPU cost factor of this rank (cpuSpeedup, hostDispatchSpeedup, cpuSlowRank)
    double compute_ = 1.0;  // the same for CPU compute (hostComputeSpeedup instead of hostDispatchSpeedup)
    double gpuScale_ = 1.0; // kernel duration factor of this rank (gpuSpeedup, rankSpread)
    std::uint8_t thread_ = 0;
    Ns pendingGap_ = 0;
    std::int64_t nextExternal_ = 1;
    std::int64_t nextCorrelation_ = 1;
    std::vector<std::int64_t> externalStack_;
    std::vector<std::uint32_t> groupSeq_;
    std::array<std::int32_t, kStreamCount> lastOp_{};
    std::array<std::vector<std::int32_t>, kStreamCount> pendingDeps_;
    std::int64_t bucket_ = 0;
    std::vector<std::int32_t> dpRecords_;
    std::vector<std::size_t> open_; // open Begin actions (indices), innermost last
    std::string pendingShapes_;     // shapeNext() for the next kernel's op
};

} // namespace sl::synth::detail
