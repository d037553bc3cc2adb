// Writes one rank of the synthetic job in the JSON shape the PyTorch profiler (Kineto) writes.
#include "synth/Program.h"

#include <charconv>
#include <cstdio>

namespace sl::synth {

namespace {

constexpr Ns kBaseNs = 1'000'000'000'000; // trace clock: 1e6 s after the clock's epoch
constexpr std::int64_t kBaseTimeNanoseconds = 1'735'000'000'000'000'000LL;

class Out {
public:
    explicit Out(std::string& s) : s_(s) {}
    Out& operator<<(const char* t) {
        s_ += t;
        return *this;
    }
    Out& operator<<(const std::string& t) {
        s_ += t;
        return *this;
    }
    Out& operator<<(char c) {
        s_ += c;
        return *this;
    }
    Out& operator<<(std::int64_t v) {
        char buf[24];
        auto r = std::to_chars(buf, buf + sizeof buf, v);
        s_.append(buf, r.ptr);
        return *this;
    }
    Out& operator<<(int v) { return *this << static_cast<std::int64_t>(v); }
    Out& num(double v) {
        char buf[32];
        int n = std::snprintf(buf, sizeof buf, "%.6g", v);
        s_.append(buf, static_cast<std::size_t>(n));
        return *this;
    }
    // Microseconds with nanosecond decimals, as Kineto writes them ("1234.567").
    Out& us(Ns ns) {
        *this << ns / 1000 << '.';
        Ns frac = ns % 1000;
        s_ += static_cast<char>('0' + frac / 100);
        s_ += static_cast<char>('0' + frac / 10 % 10);
        s_ += static_cast<char>('0' + frac % 10);
        return *this;
    }
    Out& str(const std::string& t) { // names hold no quotes or backslashes, checked by the builder
        s_ += '"';
        s_ += t;
        s_ += '"';
        return *this;
    }

private:
    std::string& s_;
};

std::string ranksText(const std::vector<int>& ranks) {
    std::string s = "[";
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        if (i) s += ", ";
        s += std::to_string(ranks[i]);
    }
    return s + "]";
}

void commArgs(Out& o, const Job& job, const CommMeta& m) {
    const auto& g = job.groups[static_cast<std::size_t>(m.group)];
    std::int64_t in = m.nelems, out = m.nelems;
    if (m.kind == CommKind::AllGather) out = in * static_cast<std::int64_t>(g.ranks.size());
    if (m.kind == CommKind::ReduceScatter) out = in / static_cast<std::int64_t>(g.ranks.size());
    o << ", \"Collective name\": \"" << collectiveName(m.kind) << "\", \"In msg nelems\": " << in
      << ", \"Out msg nelems\": " << out << ", \"Group size\": " << static_cast<int>(g.ranks.size())
      << ", \"dtype\": \"" << m.dtype << "\", \"In split size\": \"[]\", \"Out split size\": \"[]\""
      << ", \"Process Group Name\": \"" << g.name << "\", \"Process Group Description\": \"" << g.desc
      << "\", \"Process Group Ranks\": \"" << ranksText(g.ranks) << "\"";
}

int cbid(const std::string& api) {
    if (api == "cudaLaunchKernel") return 211;
    if (api == "cudaLaunchKernelExC") return 430;
    if (api == "cudaEventRecord") return 135;
    if (api == "cudaStreamWaitEvent") return 147;
    if (api == "cudaMemcpyAsync") return 41;
    if (api == "cudaStreamSynchronize") return 131;
    return 0;
}

} // namespace

std::string kinetoJson(const Job& job, int rank) {
    const SynthConfig& c = job.config;
    const Program& p = job.programs[static_cast<std::size_t>(rank)];
    const int device = rank % c.gpusPerNode;
    const std::int64_t pid = 100000 + 7 * static_cast<std::int64_t>(rank), tid = pid;
    const std::int64_t autogradTid = pid + 3; // autograd's engine thread (SynthConfig::backwardThread)
    auto tidOf = [&](const Action& a) { return a.thread == 0 ? tid : autogradTid; };
    // The profiler window opens when the launch of the last pre-window op has returned: host events
    // that start earlier are not in the file, ranges open across it start at it (README: Variants).
    Ns windowStart = -1;
    for (std::size_t i = 0; i < p.ops.size() && i < static_cast<std::size_t>(c.prewindowOps); ++i)
        windowStart = std::max(windowStart, p.actions[static_cast<std::size_t>(p.ops[i].launchAction)].end);
    auto inWindow = [&](const Action& a) {
        return a.kind == ActKind::Begin ? a.end > windowStart : a.start >= windowStart;
    };
    std::string s;
    s.reserve(p.actions.size() * 260 + p.ops.size() * 700 + 8192);
    Out o(s);

    o << "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [";
    for (int d = 0; d < c.gpusPerNode; ++d) {
        o << (d ? ",\n" : "\n") << "    {\"id\": " << d << ", \"name\": ";
        o.str(job.gpu.name) << ", \"totalGlobalMem\": " << job.gpu.memoryBytes
                            << ", \"computeMajor\": " << job.gpu.computeMajor
                            << ", \"computeMinor\": " << job.gpu.computeMinor
                            << ", \"maxThreadsPerBlock\": 1024, \"maxThreadsPerMultiprocessor\": 2048"
                            << ", \"regsPerBlock\": 65536, \"warpSize\": 32, \"sharedMemPerBlock\": 49152"
                            << ", \"numSms\": " << job.gpu.numSms
                            << ", \"regsPerMultiprocessor\": 65536, \"sharedMemPerBlockOptin\": 232448"
                            << ", \"sharedMemPerMultiprocessor\": 233472}";
    }
    o << "\n  ],\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": " << rank
      << ", \"world_size\": " << c.worldSize() << ", \"pg_count\": " << static_cast<int>(p.groups.size())
      << ", \"pg_config\": [";
    for (std::size_t i = 0; i < p.groups.size(); ++i) {
        const auto& g = job.groups[static_cast<std::size_t>(p.groups[i])];
        o << (i ? ", " : "") << "{\"pg_name\": \"" << g.name << "\", \"pg_desc\": \"" << g.desc
          << "\", \"backend_config\": \"cuda:nccl\", \"pg_size\": " << static_cast<int>(g.ranks.size())
          << ", \"ranks\": " << ranksText(g.ranks) << "}";
    }
    o << "], \"nccl_version\": \"2.21.5\"},\n  \"traceEvents\": [\n";

    // Metadata: process and thread names, as Kineto writes them.
    auto meta = [&](const char* what, std::int64_t mpid, std::int64_t mtid, const char* key,
                    const std::string& v, bool quoted) {
        o << "  {\"name\": \"" << what << "\", \"ph\": \"M\", \"ts\": ";
        o.us(kBaseNs) << ", \"pid\": " << mpid << ", \"tid\": " << mtid << ", \"args\": {\"" << key << "\": ";
        if (quoted)
            o.str(v);
        else
            o << v;
        o << "}},\n";
    };
    meta("process_name", pid, 0, "name", "python3", true);
    meta("process_labels", pid, 0, "labels", "CPU", true);
    meta("process_sort_index", pid, 0, "sort_index", std::to_string(pid), false);
    meta("process_name", device, 0, "name", "python3", true);
    meta("process_labels", device, 0, "labels", "GPU " + std::to_string(device), true);
    meta("process_sort_index", device, 0, "sort_index", std::to_string(16777216 + device), false);
    meta("thread_name", pid, tid, "name", "thread " + std::to_string(tid) + " (pt_main_thread)", true);
    meta("thread_sort_index", pid, tid, "sort_index", std::to_string(tid), false);
    if (c.backwardThread) {
        meta("thread_name", pid, autogradTid, "name",
             "thread " + std::to_string(autogradTid) + " (pt_autograd_0)", true);
        meta("thread_sort_index", pid, autogradTid, "sort_index", std::to_string(autogradTid), false);
    }
    bool used[kStreamCount] = {};
    for (const auto& op : p.ops)
        used[op.stream] = true;
    for (int sIdx = 0; sIdx < kStreamCount; ++sIdx) {
        if (!used[sIdx]) continue;
        meta("thread_name", device, kStreamIds[sIdx], "name",
             "stream " + std::to_string(kStreamIds[sIdx]) + " ", true);
        meta("thread_sort_index", device, kStreamIds[sIdx], "sort_index", std::to_string(kStreamIds[sIdx]),
             false);
    }

    // CPU side: cpu_op / user_annotation ranges and runtime calls, with flow starts.
    auto head = [&](const char* cat, const std::string& name, std::int64_t epid, std::int64_t etid, Ns start,
                    Ns dur) {
        o << "  {\"ph\": \"X\", \"cat\": \"" << cat << "\", \"name\": ";
        o.str(name) << ", \"pid\": " << epid << ", \"tid\": " << etid << ", \"ts\": ";
        o.us(kBaseNs + start) << ", \"dur\": ";
        o.us(dur) << ", \"args\": {";
    };
    auto flow = [&](char ph, std::int64_t id, std::int64_t fpid, std::int64_t ftid, Ns ts) {
        o << "  {\"ph\": \"" << ph << "\", \"id\": " << id << ", \"pid\": " << fpid << ", \"tid\": " << ftid
          << ", \"ts\": ";
        o.us(kBaseNs + ts) << ", \"cat\": \"ac2g\", \"name\": \"ac2g\""
                           << (ph == 'f' ? ", \"bp\": \"e\"" : "") << "},\n";
    };
    int syncEventId = 1;
    for (const Action& a : p.actions) {
        if (a.kind == ActKind::End || a.kind == ActKind::Handoff || a.kind == ActKind::BatchWait ||
            !inWindow(a))
            continue;
        const std::string& name = p.names[a.name];
        const std::int64_t atid = tidOf(a);
        if (a.kind == ActKind::Begin) {
            Ns start = std::max(a.start, windowStart);
            head(a.annotation ? "user_annotation"
                 : a.python   ? "python_function"
                              : "cpu_op",
                 name, pid, atid, start, a.end - start);
            if (a.python)
                o << "\"Python id\": " << a.externalId
                  << ", \"Python thread\": " << static_cast<int>(a.thread);
            else
                o << "\"External id\": " << a.externalId << ", \"Record function id\": " << a.externalId;
            if (a.ref >= 0) commArgs(o, job, p.comms[static_cast<std::size_t>(a.ref)]);
            if (a.shapes >= 0) o << ", " << p.shapes[static_cast<std::size_t>(a.shapes)];
            o << "}},\n";
            continue;
        }
        head("cuda_runtime", name, pid, atid, a.start, a.end - a.start);
        o << "\"External id\": " << a.externalId << ", \"cbid\": " << cbid(name)
          << ", \"correlation\": " << a.correlation << "}},\n";
        if (a.kind == ActKind::Launch) flow('s', a.correlation, pid, atid, a.start);
        if (a.kind == ActKind::StreamWait) {
            const Action& rec = p.actions[static_cast<std::size_t>(a.ref)];
            std::int64_t sid = kStreamIds[a.stream];
            Ns ts = a.start + (a.end - a.start) / 3;
            flow('s', a.correlation, pid, atid, a.start);
            head("cuda_sync", "Stream Wait Event", device, sid, ts, 1000);
            o << "\"External id\": " << a.externalId
              << ", \"cuda_sync_kind\": \"Stream Wait Event\", \"wait_on_stream\": " << kStreamIds[rec.stream]
              << ", \"wait_on_cuda_event_record_corr_id\": " << rec.correlation
              << ", \"wait_on_cuda_event_id\": " << syncEventId++ << ", \"stream\": " << sid
              << ", \"correlation\": " << a.correlation << ", \"device\": " << device
              << ", \"context\": 1}},\n";
            flow('f', a.correlation, device, sid, ts);
        }
    }

    // GPU side: kernels and copies, with flow ends.
    for (const GpuOp& op : p.ops) {
        const Action& launch = p.actions[static_cast<std::size_t>(op.launchAction)];
        std::int64_t sid = kStreamIds[op.stream];
        head(op.memcpy ? "gpu_memcpy" : "kernel", p.names[op.name], device, sid, op.start, op.end - op.start);
        o << "\"External id\": " << launch.externalId;
        if (op.memcpy) {
            o << ", \"device\": " << device << ", \"context\": 1, \"stream\": " << sid
              << ", \"correlation\": " << launch.correlation
              << ", \"bytes\": 4, \"memory bandwidth (GB/s)\": ";
            o.num(4.0 / static_cast<double>(std::max<Ns>(1, op.end - op.start)));
        } else {
            double blocksPerSm = static_cast<double>(op.grid) / job.gpu.numSms;
            o << ", \"queued\": 0, \"device\": " << device << ", \"context\": 1, \"stream\": " << sid
              << ", \"correlation\": " << launch.correlation
              << ", \"registers per thread\": " << (op.comm >= 0 ? 96 : 168)
              << ", \"shared memory\": " << (op.comm >= 0 ? 87568 : 114688) << ", \"blocks per SM\": ";
            o.num(blocksPerSm) << ", \"warps per SM\": ";
            o.num(blocksPerSm * static_cast<double>(op.block) / 32.0)
                << ", \"grid\": [" << op.grid << ", 1, 1], \"block\": [" << op.block
                << ", 1, 1], \"est. achieved occupancy %\": " << (op.comm >= 0 ? 0 : 19);
            if (op.comm >= 0) commArgs(o, job, p.comms[static_cast<std::size_t>(op.comm)]);
        }
        o << "}},\n";
        if (inWindow(launch)) flow('f', launch.correlation, device, sid, op.start);
    }
    // Kineto ends the list with the profiler's own span; it also keeps the JSON valid after the last comma.
    Ns endNs = 0;
    for (const Action& a : p.actions)
        endNs = std::max(endNs, a.end);
    o << "  {\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\", \"pid\": \"\", \"tid\": \"\", "
         "\"ts\": ";
    o.us(kBaseNs + endNs + 1000) << "}\n  ],\n  \"traceName\": \"rank-" << rank
                                 << ".json\",\n  \"displayTimeUnit\": \"ms\",\n  \"baseTimeNanoseconds\": "
                                 << kBaseTimeNanoseconds << "\n}\n";
    return s;
}

} // namespace sl::synth
