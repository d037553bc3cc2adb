#include "io/chakra/ChakraReader.h"

#include "io/LoadError.h"
#include "io/PathExpand.h"

#include <io/chakra/chakra_et.pb.h>

#include <google/protobuf/stubs/logging.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <queue>
#include <sstream>
#include <unordered_map>

namespace sl {

namespace pb = ChakraProtoMsg;

std::string_view chakraNodeTypeName(ChakraNodeType t) {
    static constexpr std::array<std::string_view, kChakraNodeTypeCount> names = {
        "INVALID_NODE", "METADATA_NODE",  "MEM_LOAD_NODE",  "MEM_STORE_NODE",
        "COMP_NODE",    "COMM_SEND_NODE", "COMM_RECV_NODE", "COMM_COLL_NODE"};
    auto i = static_cast<std::size_t>(t);
    return i < names.size() ? names[i] : "INVALID_NODE";
}

std::string_view chakraCommTypeName(ChakraCommType t) {
    static constexpr std::array<std::string_view, kChakraCommTypeCount> names = {
        "ALL_REDUCE", "REDUCE",         "ALL_GATHER",           "GATHER", "SCATTER", "BROADCAST",
        "ALL_TO_ALL", "REDUCE_SCATTER", "REDUCE_SCATTER_BLOCK", "BARRIER"};
    auto i = static_cast<std::size_t>(t);
    return i < names.size() ? names[i] : "UNKNOWN";
}

CollectiveType collectiveTypeFromChakra(ChakraCommType t) {
    switch (t) {
    case ChakraCommType::AllReduce:
        return CollectiveType::AllReduce;
    case ChakraCommType::Reduce:
        return CollectiveType::Reduce;
    case ChakraCommType::AllGather:
    case ChakraCommType::Gather:
        return CollectiveType::AllGather;
    case ChakraCommType::Broadcast:
    case ChakraCommType::Scatter:
        return CollectiveType::Broadcast;
    case ChakraCommType::AllToAll:
        return CollectiveType::AllToAll;
    case ChakraCommType::ReduceScatter:
    case ChakraCommType::ReduceScatterBlock:
        return CollectiveType::ReduceScatter;
    case ChakraCommType::Barrier:
        break;
    }
    return CollectiveType::Unknown;
}

int chakraCommTypeOf(CollectiveType t) {
    switch (t) {
    case CollectiveType::AllReduce:
        return static_cast<int>(ChakraCommType::AllReduce);
    case CollectiveType::AllGather:
        return static_cast<int>(ChakraCommType::AllGather);
    case CollectiveType::ReduceScatter:
        return static_cast<int>(ChakraCommType::ReduceScatter);
    case CollectiveType::AllToAll:
        return static_cast<int>(ChakraCommType::AllToAll);
    case CollectiveType::Broadcast:
        return static_cast<int>(ChakraCommType::Broadcast);
    case CollectiveType::Reduce:
        return static_cast<int>(ChakraCommType::Reduce);
    default:
        return -1;
    }
}

namespace {

// protobuf logs parse problems (invalid UTF-8 in a string field) to stderr itself; the reader
// reports them as one LoadError line instead.
void silenceProtobufLogging() {
    static const bool once = [] {
        google::protobuf::SetLogHandler(nullptr);
        return true;
    }();
    (void)once;
}

// Integer value of an attribute, when it has one.
std::optional<std::int64_t> attrInt(const pb::AttributeProto& a, bool* overflow) {
    using V = pb::AttributeProto;
    switch (a.value_case()) {
    case V::kInt32Val:
        return a.int32_val();
    case V::kInt64Val:
        return a.int64_val();
    case V::kUint32Val:
        return a.uint32_val();
    case V::kUint64Val:
        if (a.uint64_val() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            *overflow = true;
            return std::nullopt;
        }
        return static_cast<std::int64_t>(a.uint64_val());
    case V::kSint32Val:
        return a.sint32_val();
    case V::kSint64Val:
        return a.sint64_val();
    case V::kFixed32Val:
        return a.fixed32_val();
    case V::kFixed64Val:
        if (a.fixed64_val() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            *overflow = true;
            return std::nullopt;
        }
        return static_cast<std::int64_t>(a.fixed64_val());
    case V::kSfixed32Val:
        return a.sfixed32_val();
    case V::kSfixed64Val:
        return a.sfixed64_val();
    case V::kBoolVal:
        return a.bool_val() ? 1 : 0;
    case V::kDoubleVal:
        if (!std::isfinite(a.double_val()) || std::abs(a.double_val()) > 9.0e18) {
            *overflow = true;
            return std::nullopt;
        }
        return static_cast<std::int64_t>(a.double_val());
    default:
        return std::nullopt;
    }
}

std::string attrText(const pb::AttributeProto& a) {
    using V = pb::AttributeProto;
    bool overflow = false;
    if (auto v = attrInt(a, &overflow)) return std::to_string(*v);
    switch (a.value_case()) {
    case V::kUint64Val:
        return std::to_string(a.uint64_val());
    case V::kFixed64Val:
        return std::to_string(a.fixed64_val());
    case V::kFloatVal:
        return std::to_string(a.float_val());
    case V::kDoubleVal:
        return std::to_string(a.double_val());
    case V::kStringVal:
        return a.string_val();
    default:
        return {};
    }
}

// Reads a base-128 varint at `pos`; false when the bytes end first or it is longer than 10 bytes.
bool readVarint(std::string_view b, std::size_t& pos, std::uint64_t& out) {
    out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= b.size()) return false;
        auto c = static_cast<unsigned char>(b[pos++]);
        out |= std::uint64_t(c & 0x7f) << shift;
        if (!(c & 0x80)) return true;
    }
    return false;
}

struct Reader {
    std::string_view bytes;
    const std::string& name;
    const ChakraLimits& limits;
    std::size_t pos = 0;

    [[noreturn]] void fail(const std::string& what, std::int64_t offset = -1) const {
        throw LoadError(name, what, offset);
    }

    // The next length-delimited message, or nullopt at the end of the file.
    std::optional<std::string_view> next(const std::string& where) {
        if (pos >= bytes.size()) return std::nullopt;
        const std::size_t at = pos;
        std::uint64_t len = 0;
        if (!readVarint(bytes, pos, len))
            fail("truncated or corrupt protobuf: bad length prefix " + where, static_cast<std::int64_t>(at));
        if (len > bytes.size() - pos)
            fail("truncated protobuf: a message of " + std::to_string(len) + " bytes " + where +
                     " runs past the end of the file (" + std::to_string(bytes.size() - pos) + " bytes left)",
                 static_cast<std::int64_t>(at));
        std::string_view m = bytes.substr(pos, len);
        pos += len;
        return m;
    }
};

std::string afterNode(const std::vector<ChakraNode>& nodes) {
    return nodes.empty() ? "(the first node)" : "(after node id " + std::to_string(nodes.back().id) + ")";
}

ChakraNode toNode(const pb::Node& n, Reader& r) {
    ChakraNode out;
    out.id = n.id();
    const std::string idText = "node " + std::to_string(n.id());
    out.name = n.name();
    int type = static_cast<int>(n.type());
    if (type < 0 || type >= kChakraNodeTypeCount)
        r.fail(idText + ": unknown node type " + std::to_string(type));
    out.type = static_cast<ChakraNodeType>(type);
    out.dataDeps.assign(n.data_deps().begin(), n.data_deps().end());
    out.ctrlDeps.assign(n.ctrl_deps().begin(), n.ctrl_deps().end());
    const std::uint64_t maxMicros = static_cast<std::uint64_t>(r.limits.maxDurationNs / 1000);
    if (n.duration_micros() > maxMicros)
        r.fail(idText + ": duration of " + std::to_string(n.duration_micros()) +
               " us overflows the limit of " + std::to_string(maxMicros) + " us");
    // proto3 cannot tell an absent duration from zero: zero reads as "none given" (a collective
    // then takes its time from the cost model, docs/Chakra.md).
    out.durationNs = n.duration_micros() > 0 ? static_cast<std::int64_t>(n.duration_micros()) * 1000 : -1;
    if (n.start_time_micros() > 0) {
        if (n.start_time_micros() >
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max() / 1000))
            r.fail(idText + ": start time of " + std::to_string(n.start_time_micros()) + " us overflows");
        out.startNs = static_cast<std::int64_t>(n.start_time_micros()) * 1000;
    }
    out.inputShapes = n.inputs().shapes();
    out.inputTypes = n.inputs().types();
    out.outputShapes = n.outputs().shapes();
    out.outputTypes = n.outputs().types();
    for (const auto& a : n.attr()) {
        bool overflow = false;
        const std::string& key = a.name();
        auto v = attrInt(a, &overflow);
        if (overflow) r.fail(idText + ": attribute " + key + " overflows a 64-bit signed integer");
        if (key == "is_cpu_op") {
            out.isCpuOp = v && *v != 0;
        } else if (key == "tid") {
            if (v) out.tid = *v;
        } else if (key == "stream") {
            if (v) out.stream = *v;
        } else if (key == "comm_type") {
            if (!v || *v < 0 || *v >= kChakraCommTypeCount)
                r.fail(idText + ": comm_type " + attrText(a) + " is not a collective type of the schema");
            out.commType = static_cast<int>(*v);
        } else if (key == "comm_size") {
            if (!v || *v < 0 || *v > r.limits.maxCommBytes)
                r.fail(idText + ": comm_size " + attrText(a) + " overflows the limit of " +
                       std::to_string(r.limits.maxCommBytes) + " bytes");
            out.commSize = *v;
        } else if (key == "pg_name" || key == "comm_group" || key == "process_group") {
            out.commGroup = attrText(a);
        } else if (key == "comm_src") {
            if (v) out.commSrc = *v;
        } else if (key == "comm_dst") {
            if (v) out.commDst = *v;
        } else if (key == "comm_tag") {
            if (v) out.commTag = *v;
        } else if (key == "comm_size_estimated") {
            out.commSizeEstimated = v && *v != 0;
        }
    }
    return out;
}

// Kahn's algorithm over the data dependencies; throws naming a node on a cycle.
void checkAcyclic(const std::vector<ChakraNode>& nodes,
                  const std::unordered_map<std::uint64_t, std::size_t>& index, Reader& r) {
    std::vector<std::uint32_t> indeg(nodes.size(), 0);
    std::vector<std::vector<std::uint32_t>> out(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
        for (std::uint64_t d : nodes[i].dataDeps) {
            std::size_t from = index.at(d);
            out[from].push_back(static_cast<std::uint32_t>(i));
            ++indeg[i];
        }
    std::vector<std::uint32_t> ready;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (indeg[i] == 0) ready.push_back(static_cast<std::uint32_t>(i));
    std::size_t seen = 0;
    while (!ready.empty()) {
        std::uint32_t n = ready.back();
        ready.pop_back();
        ++seen;
        for (std::uint32_t m : out[n])
            if (--indeg[m] == 0) ready.push_back(m);
    }
    if (seen == nodes.size()) return;
    // A node left with pending dependencies lies on or behind a cycle; walk back along pending
    // dependencies until a node repeats: that one is on the cycle.
    std::size_t cur = 0;
    while (indeg[cur] == 0)
        ++cur;
    std::vector<std::uint8_t> visited(nodes.size(), 0);
    while (!visited[cur]) {
        visited[cur] = 1;
        for (std::uint64_t d : nodes[cur].dataDeps) {
            std::size_t p = index.at(d);
            if (indeg[p] != 0) {
                cur = p;
                break;
            }
        }
    }
    r.fail("node " + std::to_string(nodes[cur].id) + ": its data dependencies form a cycle");
}

} // namespace

ChakraFile readChakraBytes(std::string_view bytes, const std::string& name, const ChakraLimits& limits) {
    silenceProtobufLogging();
    ChakraFile file;
    file.path = name;
    Reader r{bytes, name, limits};
    auto meta = r.next("(the global metadata)");
    if (!meta) r.fail("empty file: no Chakra global metadata");
    pb::GlobalMetadata gm;
    if (!gm.ParseFromArray(meta->data(), static_cast<int>(meta->size())))
        r.fail("corrupt protobuf: the global metadata message does not parse", 0);
    file.version = gm.version();
    for (const auto& a : gm.attr())
        file.metadata.emplace_back(a.name(), attrText(a));
    std::unordered_map<std::uint64_t, std::size_t> index;
    pb::Node msg;
    for (;;) {
        const std::size_t at = r.pos;
        auto m = r.next(afterNode(file.nodes));
        if (!m) break;
        if (static_cast<std::int64_t>(file.nodes.size()) >= limits.maxNodes)
            r.fail("more than " + std::to_string(limits.maxNodes) + " nodes");
        msg.Clear();
        if (!msg.ParseFromArray(m->data(), static_cast<int>(m->size())))
            r.fail("corrupt protobuf: a node message does not parse " + afterNode(file.nodes),
                   static_cast<std::int64_t>(at));
        ChakraNode node = toNode(msg, r);
        if (!index.emplace(node.id, file.nodes.size()).second)
            r.fail("node " + std::to_string(node.id) + ": the id appears twice");
        file.nodes.push_back(std::move(node));
    }
    for (auto& n : file.nodes) {
        for (std::uint64_t d : n.dataDeps) {
            if (d == n.id) r.fail("node " + std::to_string(n.id) + ": depends on itself (a cycle)");
            if (!index.count(d))
                r.fail("node " + std::to_string(n.id) + ": data dependency on node " + std::to_string(d) +
                       ", which is not in the file");
        }
        for (std::uint64_t d : n.ctrlDeps) {
            if (d == n.id)
                ++file.ctrlDepsOnSelf;
            else if (!index.count(d))
                ++file.ctrlDepsMissing;
        }
    }
    checkAcyclic(file.nodes, index, r);
    if (file.ctrlDepsOnSelf || file.ctrlDepsMissing)
        file.warnings.add(Warn::ChakraCtrlDepsInvalid,
                          std::to_string(file.ctrlDepsMissing) +
                              " control dependencies name nodes not in the file and " +
                              std::to_string(file.ctrlDepsOnSelf) +
                              " name their own node; control dependencies do not order the replay "
                              "(only data dependencies do, as in ASTRA-sim)",
                          file.ctrlDepsMissing + file.ctrlDepsOnSelf);
    return file;
}

ChakraFile readChakraFile(const std::string& path, const ChakraLimits& limits) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw LoadError(ErrorKind::Read, path, "is a folder, not a Chakra .et file");
    // A FIFO or device would block or never end: only regular files are read.
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
        throw LoadError(ErrorKind::Read, path, "not a regular file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw LoadError(ErrorKind::Read, path, "cannot open the file");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw LoadError(ErrorKind::Read, path, "read error");
    std::string bytes = std::move(ss).str();
    return readChakraBytes(bytes, path, limits);
}

namespace {

void setInt(pb::AttributeProto* a, const char* name, std::int64_t v) {
    a->set_name(name);
    a->set_int64_val(v);
}

void setInt32(pb::AttributeProto* a, const char* name, std::int64_t v) {
    a->set_name(name);
    a->set_int32_val(
        static_cast<std::int32_t>(std::clamp<std::int64_t>(v, 0, std::numeric_limits<std::int32_t>::max())));
}

void appendDelimited(std::string& out, const google::protobuf::MessageLite& m) {
    std::string body = m.SerializeAsString();
    std::uint64_t n = body.size();
    while (n >= 0x80) {
        out.push_back(static_cast<char>((n & 0x7f) | 0x80));
        n >>= 7;
    }
    out.push_back(static_cast<char>(n));
    out += body;
}

} // namespace

std::string chakraBytes(const ChakraFile& file) {
    std::string out;
    pb::GlobalMetadata gm;
    gm.set_version(file.version);
    for (const auto& [k, v] : file.metadata) {
        auto* a = gm.add_attr();
        a->set_name(k);
        a->set_string_val(v);
    }
    appendDelimited(out, gm);
    pb::Node n;
    for (const auto& node : file.nodes) {
        n.Clear();
        n.set_id(node.id);
        n.set_name(node.name);
        n.set_type(static_cast<pb::NodeType>(node.type));
        for (auto d : node.ctrlDeps)
            n.add_ctrl_deps(d);
        for (auto d : node.dataDeps)
            n.add_data_deps(d);
        if (node.startNs >= 0) n.set_start_time_micros(static_cast<std::uint64_t>(node.startNs / 1000));
        if (node.durationNs >= 0)
            n.set_duration_micros(static_cast<std::uint64_t>((node.durationNs + 500) / 1000));
        if (!node.inputShapes.empty() || !node.inputTypes.empty()) {
            n.mutable_inputs()->set_shapes(node.inputShapes);
            n.mutable_inputs()->set_types(node.inputTypes);
        }
        if (!node.outputShapes.empty() || !node.outputTypes.empty()) {
            n.mutable_outputs()->set_shapes(node.outputShapes);
            n.mutable_outputs()->set_types(node.outputTypes);
        }
        auto* cpu = n.add_attr();
        cpu->set_name("is_cpu_op");
        cpu->set_bool_val(node.isCpuOp);
        if (node.tid >= 0) setInt(n.add_attr(), "tid", node.tid);
        if (node.stream >= 0) setInt(n.add_attr(), "stream", node.stream);
        if (node.commType >= 0) setInt(n.add_attr(), "comm_type", node.commType);
        if (node.commSize >= 0) setInt(n.add_attr(), "comm_size", node.commSize);
        if (!node.commGroup.empty()) {
            auto* a = n.add_attr();
            a->set_name("pg_name");
            a->set_string_val(node.commGroup);
        }
        // Peers and tags as int32, the type Chakra's feeders read them as.
        if (node.commSrc >= 0) setInt32(n.add_attr(), "comm_src", node.commSrc);
        if (node.commDst >= 0) setInt32(n.add_attr(), "comm_dst", node.commDst);
        if (node.commTag >= 0) setInt32(n.add_attr(), "comm_tag", node.commTag);
        if (node.commSizeEstimated) {
            auto* a = n.add_attr();
            a->set_name("comm_size_estimated");
            a->set_bool_val(true);
        }
        appendDelimited(out, n);
    }
    return out;
}

void writeChakraFile(const std::string& path, const ChakraFile& file) {
    std::string bytes = chakraBytes(file);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw WriteError(path, "cannot write the file");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw WriteError(path, "write error");
}

int rankFromChakraFileName(const std::string& path) {
    std::string name = std::filesystem::path(path).filename().string();
    if (name.size() < 4 || name.compare(name.size() - 3, 3, ".et") != 0) return -1;
    std::size_t end = name.size() - 3, b = end;
    while (b > 0 && std::isdigit(static_cast<unsigned char>(name[b - 1])))
        --b;
    if (b == end || end - b > 7) return -1;
    return std::stoi(name.substr(b, end - b));
}

bool isChakraPath(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    auto isEt = [](const fs::path& p) { return p.extension() == ".et"; };
    if (fs::is_directory(path, ec)) {
        for (const auto& e : fs::directory_iterator(path, ec))
            if (isEt(e.path()) && !e.is_directory(ec)) return true;
        return false;
    }
    return isEt(fs::path(path));
}

std::vector<std::string> expandChakraPaths(const std::vector<std::string>& paths) {
    return expandFolders(
        paths, [](const std::string& name) { return std::filesystem::path(name).extension() == ".et"; },
        "no Chakra execution trace files (.et) in this folder", "file not found",
        [](const std::string& a, const std::string& b) {
            int ra = rankFromChakraFileName(a), rb = rankFromChakraFileName(b);
            return ra != rb ? ra < rb : a < b;
        });
}

} // namespace sl
