#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "io/MemoryLimits.h"

namespace sl {

// Called with the bytes of the file consumed so far (compressed bytes for .gz). Return false to cancel.
using ByteProgressFn = std::function<bool(std::int64_t bytesDone)>;

// The uncompressed bytes of a file, followed by the zeroed padding simdjson needs.
class TraceBuffer {
public:
    TraceBuffer() = default;
    TraceBuffer(std::string storage, std::size_t length) : storage_(std::move(storage)), length_(length) {}
    const char* data() const { return storage_.data(); }
    std::size_t size() const { return length_; }
    // The data from byte skip on (skip <= size()).
    simdjson::padded_string_view view(std::size_t skip = 0) const {
        return simdjson::padded_string_view(storage_.data() + skip, length_ - skip, storage_.size() - skip);
    }
    void release() {
        std::string().swap(storage_);
        length_ = 0;
    }

private:
    std::string storage_;
    std::size_t length_ = 0;
};

// Reads a whole file into a padded buffer for simdjson, inflating gzip (detected by its magic
// bytes, not by the name). Throws LoadError with a one-line reason: unreadable, empty, corrupt gzip.
// More than maxBytes of (uncompressed) data is refused with a LoadError naming the limit.
TraceBuffer readTraceFile(const std::string& path, const ByteProgressFn& progress = {},
                          std::int64_t maxBytes = kMaxUncompressedBytes);

// The same for bytes already in memory (name is used in error messages only).
TraceBuffer decodeTraceBytes(const std::string& name, std::string_view bytes,
                             std::int64_t maxBytes = kMaxUncompressedBytes);

// Size of the file on disk, or -1 when it cannot be read.
std::int64_t fileSizeOnDisk(const std::string& path);

} // namespace sl
