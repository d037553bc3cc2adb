#pragma once
// The GPU table of gpu.target (docs/GpuModel.md): public datasheet figures per GPU, compiled in from
// resources/gpus.json. Each figure names its source in the JSON. Lookups by name are
// case-insensitive and accept aliases ("H100", "A100"); the source GPU of a trace is found from its
// deviceProperties name (the longest matching device_names entry; ties broken by the memory size).
#include "base/Error.h"
#include "trace/TraceSet.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace sl {

// Data types a peak is quoted for. Fp32 is the vector peak; Fp32Matrix the FP32 matrix-core peak
// (AMD CDNA); 0 in GpuSpec::peakTflops where the GPU has no such path.
enum class PeakType : std::uint8_t { Fp32, Fp32Matrix, Tf32, Bf16, Fp16, Fp8, Count };
constexpr int kPeakTypeCount = static_cast<int>(PeakType::Count);
// "fp32", "fp32_matrix", "tf32", "bf16", "fp16", "fp8".
std::string_view peakTypeName(PeakType t);

struct GpuSpec {
    std::string name; // the table's name ("H100-SXM")
    std::vector<std::string> aliases;
    std::vector<std::string> deviceNames; // substrings of the CUDA / ROCm device name
    std::string vendor;
    double memoryGB = 0;
    int sms = 0;                                     // SMs (NVIDIA) or compute units (AMD)
    std::array<double, kPeakTypeCount> peakTflops{}; // dense; 0 = none
    double memoryGBps = 0;
    double linkGBps = 0; // GPU-to-GPU inside a node, both directions
    std::map<std::string, std::string> sources;
    // Achieved efficiency (roofline time / measured time) of real kernels on this GPU per kernel
    // family key ("gemm.blas", "attention.flash", "elementwise", ...: models/KernelFamily.h),
    // measured on single-GPU traces of this GPU (docs/GpuModel.md); empty where none was measured.
    std::map<std::string, double> efficiency;
    // The shortest a real kernel takes on this GPU (launch ramp and tail), in us; 0 = not measured.
    double minKernelUs = 0;

    // The efficiency of a family key, falling back to its prefixes ("gemm.blas.large" -> "gemm.blas"
    // -> "gemm"); nullopt where none of them was measured.
    std::optional<double> familyEfficiency(std::string_view familyKey) const;

    // The peak a tensor-core op of this type reaches, falling back where the GPU has no such path:
    // fp8 -> bf16/fp16, bf16 <-> fp16, tf32 -> fp32 matrix -> fp32; fp32 uses the larger of the
    // vector and the matrix peak (AMD runs FP32 GEMMs on matrix cores).
    double matrixPeakTflops(PeakType t) const;
    // The vector (non-tensor) peak for elementwise math.
    double vectorPeakTflops() const { return peakTflops[static_cast<std::size_t>(PeakType::Fp32)]; }
};

// A bad GPU table, or a GPU name the table does not know (base/Error.h, kind Format); what() says which.
class GpuTableError : public Error {
public:
    explicit GpuTableError(const std::string& message) : Error(ErrorKind::Format, std::string(), message) {}
};

class GpuTable {
public:
    // The table compiled in from resources/gpus.json, with the entries of the file that the
    // environment variable SIGHTLINE_GPU_TABLE names (same format) replacing or adding GPUs.
    static const GpuTable& builtin();
    // Parses a table (the format of resources/gpus.json); `origin` names it in errors.
    static GpuTable fromJson(std::string_view text, const std::string& origin);

    const std::vector<GpuSpec>& gpus() const { return gpus_; }
    // By name or alias, case-insensitive, ignoring spaces, '-' and '_' ("h100 sxm" == "H100-SXM").
    const GpuSpec* find(std::string_view name) const;
    // The entry a device reports (deviceProperties name and memory), or null when none matches.
    const GpuSpec* match(const DeviceProperties& device) const;
    // Every name, for messages ("V100, A100-40GB, ...").
    std::string names() const;

private:
    std::vector<GpuSpec> gpus_;
};

// The source GPU of a trace set: the `sourceName` knob when not empty (an error when the table
// lacks it), else the deviceProperties of the ranks' devices. Throws GpuTableError naming the
// device and asking for gpu.source when the trace has no deviceProperties or an unknown device, or
// when ranks report different GPUs.
const GpuSpec& sourceGpu(const TraceSet& set, const GpuTable& table, const std::string& sourceName);

} // namespace sl
