#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include <simdjson.h>

#include "io/MemoryLimits.h"
#include "trace/LazyArgs.h"

namespace sl {

class GzipIndex;

// Called with the bytes of the file consumed so far (compressed bytes for .gz). Return false to cancel.
using ByteProgressFn = std::function<bool(std::int64_t bytesDone)>;

// The uncompressed bytes of a file, followed by the zeroed padding simdjson needs.
// Either owns a string, or a read-only private mapping of a plain file followed by zero pages.
class TraceBuffer {
public:
    TraceBuffer() = default;
    TraceBuffer(std::string storage, std::size_t length)
        : storage_(std::move(storage)), data_(storage_.data()), length_(length), capacity_(storage_.size()) {}
    // Takes ownership of a mapping of mappedBytes bytes (munmap on destruction).
    static TraceBuffer fromMapping(void* mapping, std::size_t length, std::size_t mappedBytes);
    TraceBuffer(TraceBuffer&& other) noexcept;
    TraceBuffer& operator=(TraceBuffer&& other) noexcept;
    TraceBuffer(const TraceBuffer&) = delete;
    TraceBuffer& operator=(const TraceBuffer&) = delete;
    ~TraceBuffer();

    const char* data() const { return data_; }
    std::size_t size() const { return length_; }
    // The data from byte skip on (skip <= size()).
    simdjson::padded_string_view view(std::size_t skip = 0) const {
        return simdjson::padded_string_view(data_ + skip, length_ - skip, capacity_ - skip);
    }
    void release();

private:
    std::string storage_;
    const char* data_ = nullptr;
    std::size_t length_ = 0;
    std::size_t capacity_ = 0;
    void* mapping_ = nullptr;
    std::size_t mappedBytes_ = 0;
};

// Reads a whole file into a padded buffer for simdjson, inflating gzip (detected by its magic
// bytes, not by the name). Throws LoadError with a one-line reason: unreadable, empty, corrupt gzip.
// More than maxBytes of (uncompressed) data is refused with a LoadError naming the limit.
// index: for a gzip file, filled with inflate checkpoints (io/GzipIndex.h); unused for a plain one.
TraceBuffer readTraceFile(const std::string& path, const ByteProgressFn& progress = {},
                          std::int64_t maxBytes = kMaxUncompressedBytes, GzipIndex* index = nullptr);

// The same for bytes already in memory (name is used in error messages only).
TraceBuffer decodeTraceBytes(const std::string& name, std::string_view bytes,
                             std::int64_t maxBytes = kMaxUncompressedBytes);

// A plain (not gzip) regular file read in blocks at given offsets: the chunked parser keeps only
// the pieces it is parsing in memory, never the whole file (docs/Loader.md, "Memory").
class BlockFile {
public:
    BlockFile() = default;
    BlockFile(const BlockFile&) = delete;
    BlockFile& operator=(const BlockFile&) = delete;
    ~BlockFile();
    // False when the file cannot be opened, is not a regular file, is empty or starts with the gzip
    // magic bytes: readTraceFile then reads it (and names any problem).
    bool open(const std::string& path);
    std::int64_t size() const { return size_; }
    // The opened file's identity, for reading parts of it back later (trace/LazyArgs.h).
    FileStamp stamp() const { return FileStamp::ofDescriptor(fd_); }
    // Reads len bytes at offset into dst. Throws LoadError when the read fails or the file shrank.
    void read(std::int64_t offset, std::size_t len, char* dst) const;

private:
    std::string path_;
    int fd_ = -1;
    std::int64_t size_ = 0;
};

// A gzip file inflated by a producer thread into blocks, read in order by one consumer (the chunked
// parser of docs/Loader.md, "Gzip"): the inflated file is never whole in memory.
class GzipBlocks {
public:
    GzipBlocks() = default;
    GzipBlocks(const GzipBlocks&) = delete;
    GzipBlocks& operator=(const GzipBlocks&) = delete;
    ~GzipBlocks(); // stops and joins the producer
    // False when the file cannot be opened, is not a regular file or is not gzip; else starts the
    // producer. progress gets the compressed bytes read so far (false cancels). index: filled with
    // inflate checkpoints as the producer goes (complete once next() returned false).
    bool open(const std::string& path, std::int64_t maxBytes, const ByteProgressFn& progress = {},
              std::shared_ptr<GzipIndex> index = nullptr);
    // The opened file's identity (trace/LazyArgs.h).
    const FileStamp& stamp() const { return stamp_; }
    // The inflated size the file's last 4 bytes state (gzip's ISIZE: exact for a file of one
    // member under 4 GiB, only the last member's for several): an estimate, 0 when unreadable.
    std::int64_t statedSize() const { return statedSize_; }
    // Appends the next inflated block to out; false at the end of the data. Rethrows the
    // producer's LoadError (corrupt or truncated gzip, more than maxBytes) or LoadCancelled.
    bool next(std::string& out);

    static constexpr std::size_t kBlockBytes = 1 << 20;
    static constexpr std::size_t kQueued = 4; // blocks inflated ahead of the consumer

private:
    int fd_ = -1;
    FileStamp stamp_;
    std::int64_t statedSize_ = 0;
    std::thread producer_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::string> queue_;
    bool ended_ = false;
    bool stop_ = false;
    std::exception_ptr error_;
};

// Size of the file on disk, or -1 when it cannot be read.
std::int64_t fileSizeOnDisk(const std::string& path);

} // namespace sl
