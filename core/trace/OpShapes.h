#pragma once
// The input shapes of a CPU op, typed: what PyTorch writes into an op's Kineto args when the
// profiler records shapes ("Input Dims": one list per argument, [] for scalars; "Input type":
// "float", "c10::BFloat16", "Scalar", "TensorList", ...; in newer versions "Concrete Inputs":
// scalar values as text), or what an attached execution trace gives an op recorded without them
// (Rank::etOpShapes, filled by io/EtLinker). Rank::opShapes is the one reader every consumer uses
// (models/KernelCost, analysis/BenchmarkExport, analysis/RunComparison): docs/Loader.md,
// "Typed side tables", says why shapes are parsed there on demand and not at load.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

// Element types of "Input type"; Other for names that are not tensor element types.
enum class DType : std::uint8_t { Other, F64, F32, F16, BF16, F8, I64, I32, I16, I8, Bool, C64 };
DType dtypeFromName(std::string_view inputType);
int dtypeBytes(DType t); // 0 for Other

// The shapes of one op, as recorded.
struct OpShapes {
    std::vector<std::vector<std::int64_t>> dims; // nested lists (TensorList) are left empty
    std::vector<std::string> types;
    std::vector<std::string> concrete; // empty when the trace has no "Concrete Inputs"
    // "Input Dims" and "Input type" as compact JSON, nested lists included, for writers that copy
    // them (analysis/BenchmarkExport); "[]" when absent.
    std::string dimsJson = "[]";
    std::string typesJson = "[]";

    // Argument i is a tensor: an element type with dims recorded (a 0-d tensor has []).
    bool isTensor(std::size_t i) const;
    std::int64_t numel(std::size_t i) const; // 1 for a 0-d tensor
    double tensorBytes(std::size_t i) const; // numel x element size; 0 when not a tensor
    DType dtype(std::size_t i) const;
};

// Whether an args JSON text records shapes (has "Input Dims"), without parsing it.
bool hasInputDims(std::string_view argsJson);
// The "Input Dims" value of an args JSON text as written ("[[8, 4096], [4096, 4096]]"), or empty:
// for comparing two ops' shapes as text without parsing them (analysis/RunComparison).
std::string_view inputDimsText(std::string_view argsJson);
// Parses "Input Dims" / "Input type" / "Concrete Inputs" from an event's args JSON text; nullopt
// when there are no "Input Dims" (the trace was recorded without shapes) or they are malformed.
std::optional<OpShapes> parseOpShapes(std::string_view argsJson);

} // namespace sl
