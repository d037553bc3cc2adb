#include "io/ExecutionTrace.h"

#include "io/FileReader.h"
#include "io/LoadError.h"
#include "trace/AsciiText.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace sl {
namespace {

using nlohmann::json;

std::int64_t intOr(const json& j, std::int64_t fallback) {
    if (j.is_number_integer()) return j.get<std::int64_t>();
    if (j.is_number_unsigned()) return static_cast<std::int64_t>(j.get<std::uint64_t>());
    if (j.is_number_float()) return static_cast<std::int64_t>(j.get<double>());
    return fallback;
}

const json* member(const json& obj, const char* key) {
    if (!obj.is_object()) return nullptr;
    auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
}

// "Tensor(float)" -> "float"; "GenericList[Tensor(c10::Half)]" -> "c10::Half"; else "".
std::string tensorDtypeOf(std::string_view type) {
    auto p = type.find("Tensor(");
    if (p == std::string_view::npos) return {};
    p += 7;
    auto e = type.find(')', p);
    if (e == std::string_view::npos) return {};
    return std::string(type.substr(p, e - p));
}

std::vector<std::int64_t> shapeOf(const json* shape) {
    std::vector<std::int64_t> out;
    if (!shape || !shape->is_array()) return out;
    for (const auto& d : *shape)
        if (d.is_number()) out.push_back(intOr(d, -1));
    return out;
}

// A tensor value [id, storage id, offset, numel, itemsize, device] (schema 1.0.x and 1.1.x).
bool isTensorValue(const json& v) {
    return v.is_array() && v.size() >= 5 && v[0].is_number() && v[3].is_number() && v[4].is_number();
}

EtTensor tensorOf(const json& v, const json* shape, const std::string& dtype) {
    EtTensor t;
    t.numel = intOr(v[3], -1);
    t.itemSize = static_cast<int>(intOr(v[4], 0));
    t.dtype = dtype;
    t.shape = shapeOf(shape);
    return t;
}

EtArg argOf(const json& value, const json* shape, const json* type) {
    EtArg a;
    if (type && type->is_string()) a.type = type->get<std::string>();
    a.isList =
        a.type.rfind("GenericList", 0) == 0 || (a.type.empty() && value.is_array() && !isTensorValue(value));
    std::string dtype = tensorDtypeOf(a.type);
    bool tensorType = !dtype.empty();
    if (tensorType && !a.isList && isTensorValue(value)) {
        a.tensors.push_back(tensorOf(value, shape, dtype));
    } else if (a.isList && value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i) {
            const json& v = value[i];
            const json* s = shape && shape->is_array() && i < shape->size() ? &(*shape)[i] : nullptr;
            if (tensorType && isTensorValue(v))
                a.tensors.push_back(tensorOf(v, s, dtype));
            else if (v.is_number())
                a.ints.push_back(intOr(v, 0));
        }
    } else if (value.is_number()) {
        a.ints.push_back(intOr(value, 0));
    } else if (value.is_boolean()) { // a Bool argument (is_causal): 1 or 0, for the cost model
        a.ints.push_back(value.get<bool>() ? 1 : 0);
    } else if (value.is_string()) {
        a.text = value.get<std::string>();
    }
    return a;
}

// inputs / outputs in the 1.0.x layout (parallel "inputs", "input_shapes", "input_types") or the
// 1.1.x one ("inputs": {"values", "shapes", "types"}).
std::vector<EtArg> argsOf(const json& node, const char* values, const char* shapes, const char* types) {
    std::vector<EtArg> out;
    const json* v = member(node, values);
    const json* s = member(node, shapes);
    const json* t = member(node, types);
    if (v && v->is_object()) {
        s = member(*v, "shapes");
        t = member(*v, "types");
        v = member(*v, "values");
    }
    if (!v || !v->is_array()) return out;
    for (std::size_t i = 0; i < v->size(); ++i) {
        const json* si = s && s->is_array() && i < s->size() ? &(*s)[i] : nullptr;
        const json* ti = t && t->is_array() && i < t->size() ? &(*t)[i] : nullptr;
        out.push_back(argOf((*v)[i], si, ti));
    }
    return out;
}

std::int64_t sumOf(const std::vector<std::int64_t>& v) {
    std::int64_t s = 0;
    for (auto x : v)
        s += x;
    return s;
}

// Element count and dtype of the tensors of the first argument holding any.
const EtArg* firstTensorArg(const std::vector<EtArg>& args, std::size_t skip = 0) {
    for (const auto& a : args)
        if (!a.tensors.empty() && skip-- == 0) return &a;
    return nullptr;
}

std::int64_t numelOf(const EtArg* a) {
    if (!a) return -1;
    std::int64_t n = 0;
    for (const auto& t : a->tensors) {
        if (t.numel < 0) return -1;
        n += t.numel;
    }
    return n;
}

void setDtype(EtCollective& c, const EtArg* a) {
    if (!a || a->tensors.empty()) return;
    c.elemSize = a->tensors.front().itemSize;
    c.dtype = etDtypeName(a->tensors.front().dtype, c.elemSize);
}

// Attributes of schema 1.1.x: "attrs": [{"name", "type", "value"}].
const json* attr(const json& node, std::string_view name) {
    const json* attrs = member(node, "attrs");
    if (!attrs || !attrs->is_array()) return nullptr;
    for (const auto& a : *attrs) {
        const json* n = member(a, "name");
        if (n && n->is_string() && n->get_ref<const std::string&>() == name) return member(a, "value");
    }
    return nullptr;
}

EtCollective collectiveOf(const EtNode& n, const json& raw) {
    EtCollective c;
    const std::string& name = n.name;
    bool rpc = name == "record_param_comms";
    bool c10d = name.rfind("c10d::", 0) == 0;
    bool backend = name.rfind("nccl:", 0) == 0 || name.rfind("gloo:", 0) == 0 || name.rfind("rccl:", 0) == 0;
    if (!rpc && !c10d && !backend) return c;
    c.priority = rpc ? 3 : c10d ? 2 : 1;
    c.name = name;
    if (rpc) {
        // record_param_comms(tensors, seq, pg, rank, collective name, in splits, out splits, ...)
        bool seenName = false;
        int lists = 0;
        for (const auto& a : n.inputs) {
            if (!seenName && a.type == "String") {
                c.name = a.text;
                seenName = true;
            } else if (seenName && a.isList && a.tensors.empty()) {
                (lists++ == 0 ? c.inSplits : c.outSplits) = a.ints;
            }
        }
        if (const json* v = attr(raw, "collective_name"); v && v->is_string()) c.name = v->get<std::string>();
        const EtArg* in = firstTensorArg(n.inputs);
        const EtArg* out = firstTensorArg(n.outputs);
        c.inNelems = numelOf(in);
        c.outNelems = out ? numelOf(out) : c.inNelems;
        setDtype(c, in ? in : out);
    } else if (c10d && name.find("alltoall_base") != std::string::npos) {
        // c10d::alltoall_base_(Tensor output, Tensor input, pg, int[] output_split_sizes, int[]
        // input_split_sizes, ...)
        const EtArg* out = firstTensorArg(n.inputs, 0);
        const EtArg* in = firstTensorArg(n.inputs, 1);
        int lists = 0;
        for (const auto& a : n.inputs)
            if (a.isList && a.tensors.empty()) (lists++ == 0 ? c.outSplits : c.inSplits) = a.ints;
        c.inNelems = numelOf(in);
        c.outNelems = numelOf(out);
        setDtype(c, in ? in : out);
    } else {
        const EtArg* in = firstTensorArg(n.inputs);
        const EtArg* out = firstTensorArg(n.outputs);
        c.inNelems = numelOf(in);
        c.outNelems = out ? numelOf(out) : c.inNelems;
        setDtype(c, in ? in : out);
    }
    // Schema 1.1.x carries the sizes as attributes of record_param_comms.
    if (const json* v = attr(raw, "in_msg_nelems")) c.inNelems = intOr(*v, c.inNelems);
    if (const json* v = attr(raw, "out_msg_nelems")) c.outNelems = intOr(*v, c.outNelems);
    if (const json* v = attr(raw, "dtype"); v && v->is_string()) {
        std::string d = etDtypeName(v->get<std::string>(), c.elemSize);
        if (!d.empty()) c.dtype = d;
    }
    if (const json* v = attr(raw, "group_size")) c.groupSize = static_cast<int>(intOr(*v, -1));
    if (!c.inSplits.empty()) c.inNelems = sumOf(c.inSplits);
    if (!c.outSplits.empty()) c.outNelems = sumOf(c.outSplits);
    if (c.groupSize <= 0 && !c.inSplits.empty()) c.groupSize = static_cast<int>(c.inSplits.size());
    c.type = collectiveTypeFromMetadata(c.name);
    const std::string lower = asciiLower(c.name);
    bool notATransfer = lower == "wait" || lower.find("barrier") != std::string::npos ||
                        lower.find("init") != std::string::npos;
    c.valid = !notATransfer && c.type != CollectiveType::Unknown && c.inNelems >= 0 && !c.dtype.empty();
    return c;
}

std::string lowerAlnum(std::string_view s) {
    std::string out;
    for (char ch : s)
        if (std::isalnum(static_cast<unsigned char>(ch))) out += asciiLower(ch);
    return out;
}

} // namespace

bool EtNode::isRoot() const {
    return name.rfind("[pytorch|profiler|execution_", 0) == 0;
}

const EtNode* ExecutionTrace::findRfId(std::int64_t rfId) const {
    auto it = byRfId.find(rfId);
    return it == byRfId.end() ? nullptr : &nodes[it->second];
}

const EtNode* ExecutionTrace::parentOf(const EtNode& n) const {
    if (n.parent == n.id) return nullptr;
    auto it = byId.find(n.parent);
    return it == byId.end() ? nullptr : &nodes[it->second];
}

std::size_t ExecutionTrace::collectiveCount() const {
    std::size_t c = 0;
    for (const auto& n : nodes)
        c += n.collective.valid && n.collective.priority == 3 ? 1 : 0;
    return c;
}

std::string etDtypeName(std::string_view etType, int itemSize) {
    std::string key = lowerAlnum(etType);
    if (key.rfind("c10", 0) == 0) key = key.substr(3);
    if (key.rfind("at", 0) == 0 && dtypeSize(key.substr(2)) > 0) key = key.substr(2);
    struct Alias {
        std::string_view et, name;
    };
    static constexpr Alias aliases[] = {
        {"float", "Float"},
        {"double", "Double"},
        {"half", "Half"},
        {"bfloat16", "BFloat16"},
        {"longint", "Long"},
        {"long", "Long"},
        {"int64t", "Long"},
        {"int", "Int"},
        {"int32t", "Int"},
        {"shortint", "Short"},
        {"short", "Short"},
        {"signedchar", "Char"},
        {"char", "Char"},
        {"int8t", "Char"},
        {"unsignedchar", "Byte"},
        {"uint8t", "Byte"},
        {"bool", "Bool"},
        {"complexfloat", "ComplexFloat"},
        {"complexdouble", "ComplexDouble"},
        {"float8e4m3fn", "Float8_e4m3fn"},
        {"float8e5m2", "Float8_e5m2"},
    };
    for (const auto& a : aliases)
        if (a.et == key) return std::string(a.name);
    if (!key.empty() && dtypeSize(key) > 0) return std::string(etType);
    switch (itemSize) {
    case 1:
        return "Byte";
    case 2:
        return "Short";
    case 4:
        return "Int";
    case 8:
        return "Long";
    case 16:
        return "ComplexDouble";
    default:
        return {};
    }
}

int rankFromEtFileName(const std::string& path) {
    std::string stem = std::filesystem::path(path).filename().string();
    for (const char* ext : {".gz", ".json", ".et"}) {
        std::string e = ext;
        if (stem.size() > e.size() && stem.compare(stem.size() - e.size(), e.size(), e) == 0)
            stem.resize(stem.size() - e.size());
    }
    const std::string lower = asciiLower(stem);
    for (const char* key : {"rank", "worker"}) {
        auto p = lower.rfind(key);
        if (p == std::string::npos) continue;
        p += std::string_view(key).size();
        while (p < lower.size() && (lower[p] == '-' || lower[p] == '_' || lower[p] == '.'))
            ++p;
        std::size_t e = p;
        while (e < lower.size() && std::isdigit(static_cast<unsigned char>(lower[e])))
            ++e;
        if (e > p && e - p <= 6) return std::stoi(lower.substr(p, e - p));
    }
    std::size_t e = lower.size(), b = e;
    while (b > 0 && std::isdigit(static_cast<unsigned char>(lower[b - 1])))
        --b;
    if (b == e || e - b > 6 || b == 0) return -1;
    char sep = lower[b - 1];
    if (sep != '_' && sep != '-' && sep != '.') return -1;
    return std::stoi(lower.substr(b, e - b));
}

ExecutionTrace parseExecutionTrace(std::string_view text, const std::string& name) {
    json doc;
    try {
        doc = json::parse(text.begin(), text.end());
    } catch (const json::exception& e) {
        std::string what = e.what();
        std::replace(what.begin(), what.end(), '\n', ' ');
        throw LoadError(name, "invalid JSON in execution trace: " + what);
    }
    const json* nodes = member(doc, "nodes");
    if (!nodes || !nodes->is_array())
        throw LoadError(ErrorKind::Format, name, "not a PyTorch execution trace (no \"nodes\" array)");
    ExecutionTrace et;
    et.path = name;
    if (const json* s = member(doc, "schema"); s && s->is_string()) et.schema = s->get<std::string>();
    et.nodes.reserve(nodes->size());
    for (const auto& raw : *nodes) {
        if (!raw.is_object())
            throw LoadError(ErrorKind::Format, name, "execution trace node is not an object");
        EtNode n;
        if (const json* v = member(raw, "name"); v && v->is_string()) n.name = v->get<std::string>();
        if (const json* v = member(raw, "id")) n.id = intOr(*v, -1);
        if (const json* v = member(raw, "parent")) n.parent = intOr(*v, -1);
        if (const json* v = member(raw, "rf_id"))
            n.rfId = intOr(*v, -1);
        else if (const json* a = attr(raw, "rf_id"))
            n.rfId = intOr(*a, -1);
        if (const json* v = member(raw, "tid"))
            n.tid = intOr(*v, 0);
        else if (const json* a = attr(raw, "tid"))
            n.tid = intOr(*a, 0);
        n.inputs = argsOf(raw, "inputs", "input_shapes", "input_types");
        n.outputs = argsOf(raw, "outputs", "output_shapes", "output_types");
        n.collective = collectiveOf(n, raw);
        et.nodes.push_back(std::move(n));
    }
    for (std::size_t i = 0; i < et.nodes.size(); ++i) {
        const EtNode& n = et.nodes[i];
        if (n.id >= 0) et.byId.try_emplace(n.id, i);
        if (n.rfId >= 0 && !n.isRoot()) et.byRfId.try_emplace(n.rfId, i);
    }
    if (et.nodes.empty()) throw LoadError(ErrorKind::Format, name, "execution trace has no nodes");
    return et;
}

ExecutionTrace loadExecutionTrace(const std::string& path) {
    TraceBuffer buf = readTraceFile(path);
    return parseExecutionTrace(std::string_view(buf.data(), buf.size()), path);
}

} // namespace sl
