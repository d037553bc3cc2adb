#pragma once
// What a trace file is, read from its content (docs/Formats.md, "Detection"): the one place the
// CLI, the GUI's Open dialog and drag-and-drop (both through loadTraceSet) learn which reader a
// file goes to. The extension alone decides nothing but Chakra's, whose protobuf stream has no
// signature; a .json file holding an SQLite database loads as what it is.
#include <string>
#include <string_view>

namespace sl {

enum class TraceFormat {
    Kineto,      // PyTorch profiler JSON (.json, .json.gz): an object or array of trace events
    NsysSqlite,  // an SQLite database: Nsight Systems' `nsys export --type sqlite` (io/nsys)
    RocprofJson, // rocprofv3's JSON: an object whose first key is "rocprofiler-sdk-tool" (io/rocprof)
    XSpace,      // the JAX / TensorFlow profiler's *.xplane.pb protobuf (io/xspace)
    Chakra,      // a Chakra execution trace (.et, length-delimited protobuf)
    Unknown,     // none of these: the Kineto reader, the oldest, says what is wrong with it
};

// Stable lower-case name for `info` and logs: "kineto", "nsys-sqlite", "rocprofv3", "xspace",
// "chakra", "unknown".
std::string_view traceFormatName(TraceFormat format);
// What people call it: "PyTorch profiler (Kineto) JSON", "Nsight Systems SQLite export", ...
std::string_view traceFormatTitle(TraceFormat format);

// The format of a file from its first bytes (gzip already inflated: see detectTraceFile) and name.
TraceFormat detectTraceFormat(std::string_view head, std::string_view fileName);
// Reads the first bytes of a file (inflating a gzip stream) and detects its format; Unknown when
// it is not a regular file (a FIFO would block) or cannot be read: the reader then says why.
TraceFormat detectTraceFile(const std::string& path);

// Whether a file inside a folder of traces is one to load, by name (a folder holds logs and other
// files too; files given one by one are always loaded).
bool isTraceFileName(std::string_view fileName);

// The name filters of an Open dialog, Qt's "Title (*.a *.b);;..." syntax, every readable format first.
std::string traceOpenDialogFilter();

} // namespace sl
