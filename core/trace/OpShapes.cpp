#include "trace/OpShapes.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace sl {

DType dtypeFromName(std::string_view t) {
    if (t == "float") return DType::F32;
    if (t == "c10::BFloat16") return DType::BF16;
    if (t == "c10::Half") return DType::F16;
    if (t == "double") return DType::F64;
    if (t == "long int" || t == "long" || t == "int64_t") return DType::I64;
    if (t == "int") return DType::I32;
    if (t == "short int" || t == "short") return DType::I16;
    if (t == "signed char" || t == "unsigned char") return DType::I8;
    if (t == "bool") return DType::Bool;
    if (t.starts_with("c10::Float8_")) return DType::F8;
    if (t == "c10::complex<float>") return DType::C64;
    return DType::Other;
}

int dtypeBytes(DType t) {
    switch (t) {
    case DType::F64:
    case DType::I64:
    case DType::C64:
        return 8;
    case DType::F32:
    case DType::I32:
        return 4;
    case DType::F16:
    case DType::BF16:
    case DType::I16:
        return 2;
    case DType::F8:
    case DType::I8:
    case DType::Bool:
        return 1;
    case DType::Other:
        break;
    }
    return 0;
}

bool OpShapes::isTensor(std::size_t i) const {
    if (i >= dims.size() || i >= types.size()) return false;
    const DType t = dtypeFromName(types[i]);
    // PyTorch records Python numbers passed to an op (eps, alpha) with their C++ type and no dims;
    // 0-d tensors of those types are rare and a few bytes.
    if (dims[i].empty() && (t == DType::F64 || t == DType::I64 || t == DType::Bool)) return false;
    return t != DType::Other;
}

std::int64_t OpShapes::numel(std::size_t i) const {
    if (!isTensor(i)) return 0;
    std::int64_t n = 1;
    for (auto d : dims[i])
        n *= std::max<std::int64_t>(d, 0);
    return n;
}

double OpShapes::tensorBytes(std::size_t i) const {
    return static_cast<double>(numel(i)) * dtypeBytes(dtype(i));
}

DType OpShapes::dtype(std::size_t i) const {
    return i < types.size() ? dtypeFromName(types[i]) : DType::Other;
}

std::optional<OpShapes> parseOpShapes(std::string_view argsJson) {
    if (!hasInputDims(argsJson)) return std::nullopt;
    nlohmann::json j = nlohmann::json::parse(argsJson, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return std::nullopt;
    const auto dims = j.find("Input Dims");
    if (dims == j.end() || !dims->is_array()) return std::nullopt;
    OpShapes s;
    for (const auto& d : *dims) {
        std::vector<std::int64_t> v;
        if (d.is_array())
            for (const auto& x : d)
                if (x.is_number_integer()) v.push_back(x.get<std::int64_t>());
        s.dims.push_back(std::move(v)); // nested lists (TensorList) are left empty
    }
    s.dimsJson = dims->dump();
    if (auto t = j.find("Input type"); t != j.end()) {
        s.typesJson = t->dump();
        if (t->is_array())
            for (const auto& x : *t)
                s.types.push_back(x.is_string() ? x.get<std::string>() : std::string());
    }
    if (auto c = j.find("Concrete Inputs"); c != j.end() && c->is_array())
        for (const auto& x : *c)
            s.concrete.push_back(x.is_string() ? x.get<std::string>() : x.dump());
    s.types.resize(s.dims.size());
    return s;
}

bool hasInputDims(std::string_view argsJson) {
    return argsJson.find("\"Input Dims\"") != std::string_view::npos;
}

std::string_view inputDimsText(std::string_view args) {
    const std::size_t k = args.find("\"Input Dims\"");
    if (k == std::string_view::npos) return {};
    std::size_t i = args.find('[', k);
    if (i == std::string_view::npos) return {};
    int depth = 0;
    for (std::size_t j = i; j < args.size(); ++j) {
        if (args[j] == '[')
            ++depth;
        else if (args[j] == ']' && --depth == 0)
            return args.substr(i, j - i + 1);
    }
    return {};
}

} // namespace sl
