#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

namespace sl {

// The full "args" text of one event, read back from its trace file on demand (docs/Loader.md,
// "Lazy args"). On failure text is empty and error says why in one line naming the file.
struct ArgsText {
    std::string_view text; // the raw JSON object as the file has it; empty when the event has none
    std::string error;
    bool ok() const { return error.empty(); }
};

// What identifies a file's contents at load time: a read-back is refused when the file at the
// path is no longer this one (replaced, rewritten, truncated).
struct FileStamp {
    std::int64_t size = -1;
    std::int64_t mtimeNs = 0;
    std::uint64_t inode = 0;
    std::uint64_t device = 0;
    friend bool operator==(const FileStamp&, const FileStamp&) = default;
    // The stamp of an open file descriptor / of a path; size -1 when it cannot be read.
    static FileStamp ofDescriptor(int fd);
    static FileStamp ofPath(const std::string& path);
};

// A plain trace file whose events keep only the byte range of their args: reads a range with
// pread(), checks with simdjson that it is still one JSON object, and caches it, so the args
// text of shown events is all that stays in memory. Thread-safe (the details panel and exports
// may read from any thread); returned views stay valid for the object's life.
class LazyArgsFile {
public:
    LazyArgsFile(std::string path, FileStamp stamp) : path_(std::move(path)), stamp_(stamp) {}
    LazyArgsFile(const LazyArgsFile&) = delete;
    LazyArgsFile& operator=(const LazyArgsFile&) = delete;

    const std::string& path() const { return path_; }
    const FileStamp& stamp() const { return stamp_; }
    ArgsText read(std::uint64_t offset, std::uint32_t length) const;
    // Bytes of args text held by the cache.
    std::size_t cachedBytes() const;

private:
    std::string path_;
    FileStamp stamp_;
    mutable std::mutex mutex_;
    mutable std::unordered_map<std::uint64_t, std::string> cache_; // file offset -> text
    mutable std::size_t cachedBytes_ = 0;
};

} // namespace sl
