#pragma once
// Nsight Systems traces, from the SQLite file that `nsys export --type sqlite` writes
// (docs/Formats.md, "Nsight Systems"). One file may hold several processes: each process with GPU
// work (kernels, copies, sets, graph launches) is one rank, with its CPU threads (CUDA runtime and
// driver calls, NVTX push/pop ranges) and its GPU streams, in the trace model the Kineto loader
// produces. GPU work links to its launch call by correlation id as in Kineto.
#include "io/KinetoLoader.h"
#include "trace/TraceSet.h"

#include <string>
#include <string_view>
#include <vector>

namespace sl {

// The product and schema versions an export records (META_DATA_EXPORT, EXPORT_META_DATA in older
// exports); empty when the file says nothing.
struct NsysExportInfo {
    std::string productVersion;   // "2025.1.1.110"
    std::string schemaVersion;    // "3.17.1"
    std::string profiler() const; // "NVIDIA Nsight Systems 2025.1.1.110 (export schema 3.17.1)"
};

// Loads one export. loadOrder is the first rank number used when neither the processes'
// environment nor the file name gives ranks. Throws LoadError naming the file on anything that is
// not an Nsight Systems export with GPU work, a truncated or malformed database included.
std::vector<Rank> loadNsysFile(const std::string& path, int loadOrder = 0, const LoadOptions& options = {});

// The same for an export already in memory; name stands for the file in messages.
std::vector<Rank> loadNsysBytes(std::string_view bytes, const std::string& name, int loadOrder = 0,
                                const LoadOptions& options = {});

} // namespace sl
