#pragma once
#include <cstdint>
#include <memory>
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

// The contents of a trace file when they are not its bytes on disk: the inflated text of a gzip
// file, read back through inflate checkpoints (io/GzipIndex.h; docs/Loader.md, "Lazy args").
class FileContents {
public:
    virtual ~FileContents() = default;
    // Bytes of contents there are.
    virtual std::uint64_t size() const = 0;
    // Bytes [offset, offset + length) of the contents (offset + length <= size()) into dst, read
    // from the open file fd. False on failure, with why set to a one-line reason (no file name).
    virtual bool read(int fd, std::uint64_t offset, std::uint32_t length, char* dst,
                      std::string& why) const = 0;
    // Bytes held in memory to read the contents back (an index, a cache).
    virtual std::size_t memoryBytes() const = 0;
};

// A trace file whose events keep only the byte range of their args in its contents: reads a range
// (with pread() from a plain file, through contents for gzip), checks with simdjson that it is
// still one JSON object, and caches it, so the args text of shown events is all that stays in
// memory. Thread-safe (the details panel and exports may read from any thread); returned views
// stay valid for the object's life.
class LazyArgsFile {
public:
    // contents: null for a plain file (offsets are the file's bytes), else how to read them back.
    LazyArgsFile(std::string path, FileStamp stamp, std::shared_ptr<const FileContents> contents = nullptr)
        : path_(std::move(path)), stamp_(stamp), contents_(std::move(contents)) {}
    LazyArgsFile(const LazyArgsFile&) = delete;
    LazyArgsFile& operator=(const LazyArgsFile&) = delete;

    const std::string& path() const { return path_; }
    const FileStamp& stamp() const { return stamp_; }
    const FileContents* contents() const { return contents_.get(); }
    ArgsText read(std::uint64_t offset, std::uint32_t length) const;
    // Bytes of args text held by the cache.
    std::size_t cachedBytes() const;
    // Everything held in memory to read args back: the cache and the contents' index.
    std::size_t memoryBytes() const;

private:
    std::string path_;
    FileStamp stamp_;
    std::shared_ptr<const FileContents> contents_;
    mutable std::mutex mutex_;
    mutable std::unordered_map<std::uint64_t, std::string> cache_; // offset in the contents -> text
    mutable std::size_t cachedBytes_ = 0;
};

} // namespace sl
