// Times the synthetic job: a discrete-event pass over all ranks at once. Each rank's CPU threads
// run their actions back to back (blocking only in cudaStreamSynchronize, and while another thread
// of the rank runs after a handoff); a GPU op starts at
// max(launch end + launch latency, its stream free, the ops it waits for through events); a
// collective starts its transfer when its last participant has arrived and ends on all at once.
#include "synth/Program.h"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace sl::synth {

namespace {

struct RankState {
    std::size_t pc = 0;
    Ns t = 0; // the clock of the running thread (one runs at a time: the other waits for it)
    std::vector<std::size_t> open; // Begin actions not yet closed
    std::array<std::vector<std::int32_t>, kStreamCount> queue;
    std::array<std::size_t, kStreamCount> head{};
    std::array<Ns, kStreamCount> freeAt{};
    bool batchTaken = false; // the main thread took a batch from the worker pool
    Ns lastBatch = 0;        // ... at this time
};

bool runCpu(Job& job, Program& p, RankState& st) {
    bool progress = false;
    const Ns launchLatency = static_cast<Ns>(job.config.launchLatencyUs * 1000);
    while (st.pc < p.actions.size()) {
        Action& a = p.actions[st.pc];
        if (a.kind == ActKind::StreamSync && a.gpuOp >= 0 && p.ops[static_cast<std::size_t>(a.gpuOp)].end < 0)
            break; // the CPU waits for the GPU
        st.t += a.gap;
        switch (a.kind) {
        case ActKind::Handoff: // the woken thread runs next, after its wake-up latency
            st.t += a.cost;
            a.start = a.end = st.t;
            break;
        case ActKind::Begin:
            a.start = st.t;
            st.t += a.cost;
            st.open.push_back(st.pc);
            break;
        case ActKind::End:
            st.t += a.cost;
            p.actions[st.open.back()].end = st.t;
            st.open.pop_back();
            break;
        case ActKind::BatchWait:
            // The pool delivers a batch every batchInterval (it makes one only when there is room in
            // the queue, so it never runs ahead of the step it prefetches for).
            a.start = st.t;
            st.t = st.batchTaken ? std::max(st.t, st.lastBatch + p.batchInterval) : st.t + p.firstBatchWait;
            st.batchTaken = true;
            st.lastBatch = a.end = st.t;
            break;
        case ActKind::StreamSync: {
            a.start = st.t;
            Ns done = a.gpuOp >= 0 ? p.ops[static_cast<std::size_t>(a.gpuOp)].end + 2000 : 0;
            st.t = std::max(st.t + a.cost, done);
            a.end = st.t;
            break;
        }
        default:
            a.start = st.t;
            st.t += a.cost;
            a.end = st.t;
            if (a.kind == ActKind::Launch)
                p.ops[static_cast<std::size_t>(a.gpuOp)].ready = a.end + launchLatency;
            break;
        }
        ++st.pc;
        progress = true;
    }
    return progress;
}

bool runStreams(Job& job, Program& p, RankState& st) {
    bool progress = false;
    for (int s = 0; s < kStreamCount; ++s) {
        auto& q = st.queue[static_cast<std::size_t>(s)];
        auto& head = st.head[static_cast<std::size_t>(s)];
        auto& freeAt = st.freeAt[static_cast<std::size_t>(s)];
        while (head < q.size()) {
            GpuOp& op = p.ops[static_cast<std::size_t>(q[head])];
            if (op.end >= 0) { // finished as part of a collective completed by another rank
                freeAt = op.end;
                ++head;
                progress = true;
                continue;
            }
            if (op.ready < 0) break; // not launched yet
            Ns arrival = std::max(op.ready, freeAt);
            bool depsDone = true;
            for (auto d : op.deps) {
                Ns e = p.ops[static_cast<std::size_t>(d)].end;
                if (e < 0) depsDone = false;
                arrival = std::max(arrival, e);
            }
            if (!depsDone) break;
            if (op.collective < 0) {
                op.start = arrival;
                op.end = arrival + op.duration;
                freeAt = op.end;
                ++head;
                progress = true;
                continue;
            }
            if (op.start >= 0) break; // arrived, waiting for the other participants
            op.start = arrival;
            progress = true;
            CollectiveDef& coll = job.collectives[static_cast<std::size_t>(op.collective)];
            coll.lastArrival = coll.arrived == 0 ? arrival : std::max(coll.lastArrival, arrival);
            if (++coll.arrived < static_cast<int>(coll.members.size())) break;
            Ns end = coll.lastArrival + coll.transfer;
            for (auto [r, oi] : coll.members) {
                GpuOp& m = job.programs[static_cast<std::size_t>(r)].ops[static_cast<std::size_t>(oi)];
                m.end = end;
                m.duration = end - m.start;
            }
        }
    }
    return progress;
}

} // namespace

void scheduleJob(Job& job) {
    std::vector<RankState> states(job.programs.size());
    for (std::size_t r = 0; r < job.programs.size(); ++r) {
        const Program& p = job.programs[r];
        for (std::size_t i = 0; i < p.ops.size(); ++i)
            states[r].queue[p.ops[i].stream].push_back(static_cast<std::int32_t>(i));
        // Ranks start within a few tens of microseconds of each other, as after a barrier.
        states[r].t = static_cast<Ns>((r * 7919) % 41) * 1000;
    }
    bool progress = true;
    while (progress) {
        progress = false;
        for (std::size_t r = 0; r < job.programs.size(); ++r) {
            progress = runCpu(job, job.programs[r], states[r]) || progress;
            progress = runStreams(job, job.programs[r], states[r]) || progress;
        }
    }
    for (std::size_t r = 0; r < job.programs.size(); ++r) {
        const auto& st = states[r];
        bool done = st.pc == job.programs[r].actions.size();
        for (int s = 0; s < kStreamCount; ++s)
            done =
                done && st.head[static_cast<std::size_t>(s)] == st.queue[static_cast<std::size_t>(s)].size();
        if (!done)
            throw std::runtime_error("synthetic job deadlocks at rank " + std::to_string(r) +
                                     " (a schedule bug: please report the arguments)");
    }
}

} // namespace sl::synth
