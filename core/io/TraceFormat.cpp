#include "io/TraceFormat.h"

#include "io/rocprof/RocprofLoader.h"
#include "io/xspace/XSpaceLoader.h"

#include <zlib.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace sl {

namespace {

constexpr std::size_t kHeadBytes = 4096;
constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

bool isGzip(std::string_view bytes) {
    return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
           static_cast<unsigned char>(bytes[1]) == 0x8b;
}

// The first bytes of a gzip stream's content (as many as inflate gives from `compressed`).
std::string inflateHead(std::string_view compressed) {
    z_stream z{};
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return {};
    std::string out(kHeadBytes, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    z.avail_in = static_cast<uInt>(compressed.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    inflate(&z, Z_SYNC_FLUSH);
    out.resize(out.size() - z.avail_out);
    inflateEnd(&z);
    return out;
}

} // namespace

std::string_view traceFormatName(TraceFormat format) {
    switch (format) {
    case TraceFormat::Kineto:
        return "kineto";
    case TraceFormat::NsysSqlite:
        return "nsys-sqlite";
    case TraceFormat::RocprofJson:
        return "rocprofv3";
    case TraceFormat::XSpace:
        return "xspace";
    case TraceFormat::Chakra:
        return "chakra";
    case TraceFormat::Unknown:
        break;
    }
    return "unknown";
}

std::string_view traceFormatTitle(TraceFormat format) {
    switch (format) {
    case TraceFormat::Kineto:
        return "PyTorch profiler (Kineto) JSON";
    case TraceFormat::NsysSqlite:
        return "Nsight Systems SQLite export";
    case TraceFormat::RocprofJson:
        return "rocprofv3 JSON";
    case TraceFormat::XSpace:
        return "JAX / XLA profiler XSpace";
    case TraceFormat::Chakra:
        return "Chakra execution trace";
    case TraceFormat::Unknown:
        break;
    }
    return "unknown format";
}

TraceFormat detectTraceFormat(std::string_view head, std::string_view fileName) {
    if (head.starts_with(kSqliteMagic)) return TraceFormat::NsysSqlite;
    if (looksLikeRocprofJson(head)) return TraceFormat::RocprofJson;
    // A damaged *.xplane.pb still goes to the XSpace reader, which says what is wrong with it.
    if (fileName.ends_with(".xplane.pb") || fileName.ends_with(".xplane.pb.gz") ||
        ((fileName.ends_with(".pb") || fileName.ends_with(".pb.gz")) && looksLikeXSpace(head)))
        return TraceFormat::XSpace;
    for (char c : head) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
        if (c == '{' || c == '[') return TraceFormat::Kineto;
        break;
    }
    if (fileName.ends_with(".et")) return TraceFormat::Chakra;
    return TraceFormat::Unknown;
}

TraceFormat detectTraceFile(const std::string& path) {
    // Only a regular file is read here: opening a FIFO or a device would block or never end.
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return TraceFormat::Unknown;
    std::ifstream in(path, std::ios::binary);
    if (!in) return TraceFormat::Unknown;
    std::string head(kHeadBytes, '\0');
    in.read(head.data(), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<std::size_t>(in.gcount()));
    if (isGzip(head)) head = inflateHead(head);
    return detectTraceFormat(head, path);
}

bool isTraceFileName(std::string_view name) {
    if (name.ends_with(".et.json") || name.ends_with(".et.json.gz")) return false; // execution traces: --et
    for (std::string_view ext : {".json", ".json.gz", ".sqlite", ".sqlite.gz", ".xplane.pb", ".xplane.pb.gz"})
        if (name.ends_with(ext)) return true;
    return false;
}

std::string traceOpenDialogFilter() {
    return "Traces (*.json *.json.gz *.sqlite *.sqlite.gz *.xplane.pb *.xplane.pb.gz *.et);;"
           "PyTorch profiler (Kineto) JSON (*.json *.json.gz);;"
           "Nsight Systems SQLite export (*.sqlite *.sqlite.gz);;"
           "rocprofv3 JSON (*.json *.json.gz);;"
           "JAX / XLA profiler XSpace (*.xplane.pb *.xplane.pb.gz);;"
           "Chakra execution traces (*.et);;"
           "All files (*)";
}

} // namespace sl
