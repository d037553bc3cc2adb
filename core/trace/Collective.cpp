#include "trace/Collective.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace sl {

std::string_view collectiveTypeName(CollectiveType t) {
    static constexpr std::array<std::string_view, static_cast<int>(CollectiveType::Count)> names = {
        "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "broadcast",
        "reduce",     "send_recv",  "send",           "recv",       "unknown"};
    auto i = static_cast<std::size_t>(t);
    return i < names.size() ? names[i] : "unknown";
}

namespace {
std::string lowerAlnum(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u)) out.push_back(static_cast<char>(std::tolower(u)));
    }
    return out;
}

bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}
} // namespace

bool isCollectiveKernelName(std::string_view name) {
    // Strip a leading "void " that some CUPTI versions add to demangled names.
    if (startsWith(name, "void ")) name.remove_prefix(5);
    return startsWith(name, "nccl") || startsWith(name, "rccl") || startsWith(name, "mscclKernel");
}

namespace {
// One row per communication library: a kernel is communication when its lower-cased name holds
// `part` and, where given, one of `also` (docs/ARCHITECTURE.md, "Event taxonomy").
struct CommKernelRule {
    std::string_view part;
    std::array<std::string_view, 3> also{}; // empty: `part` alone decides
};
constexpr CommKernelRule kCommKernelRules[] = {
    {"dpsk::ep::"},          // DeepSeek's DeepEP build: notify, dispatch, combine, cached_notify...
    {"deep_ep::"},           // DeepEP (deep_ep::layout:: kernels are excluded below)
    {"deepep"},              //
    {"nvshmem"},             // NVSHMEM device kernels and their collectives
    {"rocshmem"},            //
    {"mscclpp"},             // MSCCL++
    {"msccl"},               // MSCCL (mscclKernel_* is also a collective kernel)
    {"cross_device_reduce"}, // vLLM / SGLang custom all-reduce
    {"intranode::", {"dispatch", "combine", "notify"}},
    {"internode::", {"dispatch", "combine", "notify"}},
    {"internode_ll::", {"dispatch", "combine", "notify"}},
};
} // namespace

bool isCommunicationKernelName(std::string_view name) {
    if (isCollectiveKernelName(name)) return true;
    std::string lower(name.substr(0, 512));
    for (auto& c : lower)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto has = [&](std::string_view part) { return !part.empty() && lower.find(part) != std::string::npos; };
    // DeepEP's layout kernels compute the routing on the GPU: compute, not communication.
    if ((has("deep_ep") || has("deepep")) && has("layout::")) return false;
    for (const auto& rule : kCommKernelRules) {
        if (!has(rule.part)) continue;
        if (rule.also[0].empty()) return true;
        for (std::string_view a : rule.also)
            if (has(a)) return true;
    }
    return false;
}

CollectiveType collectiveTypeFromKernelName(std::string_view name) {
    if (!isCollectiveKernelName(name)) return CollectiveType::Unknown;
    auto paren = name.find('(');
    std::string key = lowerAlnum(name.substr(0, paren));
    // Order matters: "reducescatter" contains "reduce", "sendrecv" contains "send".
    struct Pattern {
        std::string_view text;
        CollectiveType type;
    };
    static constexpr Pattern patterns[] = {
        {"allreduce", CollectiveType::AllReduce}, {"reducescatter", CollectiveType::ReduceScatter},
        {"allgather", CollectiveType::AllGather}, {"alltoall", CollectiveType::AllToAll},
        {"sendrecv", CollectiveType::SendRecv},   {"broadcast", CollectiveType::Broadcast},
        {"reduce", CollectiveType::Reduce},       {"send", CollectiveType::Send},
        {"recv", CollectiveType::Recv},
    };
    for (const auto& p : patterns)
        if (key.find(p.text) != std::string::npos) return p.type;
    return CollectiveType::Unknown;
}

CollectiveType collectiveTypeFromMetadata(std::string_view collectiveName) {
    std::string key = lowerAlnum(collectiveName);
    struct Pattern {
        std::string_view text;
        CollectiveType type;
    };
    static constexpr Pattern patterns[] = {
        {"allreduce", CollectiveType::AllReduce},
        {"reducescatter", CollectiveType::ReduceScatter},
        {"allgather", CollectiveType::AllGather},
        {"alltoall", CollectiveType::AllToAll},
        {"broadcast", CollectiveType::Broadcast},
        {"sendrecv", CollectiveType::SendRecv},
        {"reduce", CollectiveType::Reduce},
        {"send", CollectiveType::Send},
        {"recv", CollectiveType::Recv},
        {"gather", CollectiveType::AllGather},
        {"scatter", CollectiveType::ReduceScatter},
        {"barrier", CollectiveType::AllReduce},
    };
    for (const auto& p : patterns)
        if (key.find(p.text) != std::string::npos) return p.type;
    return CollectiveType::Unknown;
}

int dtypeSize(std::string_view dtype) {
    std::string key = lowerAlnum(dtype);
    if (startsWith(key, "c10")) key = key.substr(3);
    struct Size {
        std::string_view name;
        int bytes;
    };
    static constexpr Size sizes[] = {
        {"float", 4},        {"float32", 4},        {"double", 8}, {"float64", 8},      {"half", 2},
        {"float16", 2},      {"bfloat16", 2},       {"int", 4},    {"int32", 4},        {"long", 8},
        {"int64", 8},        {"short", 2},          {"int16", 2},  {"char", 1},         {"int8", 1},
        {"byte", 1},         {"uint8", 1},          {"bool", 1},   {"float8e4m3fn", 1}, {"float8e5m2", 1},
        {"complexfloat", 8}, {"complexdouble", 16},
    };
    for (const auto& s : sizes)
        if (s.name == key) return s.bytes;
    return 0;
}

std::int64_t CollectiveMeta::bytes(const StringTable& strings) const {
    std::int64_t n = std::max(inNelems, outNelems);
    int size = dtypeSize(strings.str(dtype));
    if (n < 0 || size == 0) return -1;
    return n * size;
}

} // namespace sl
