#include "io/FileReader.h"

#include "io/GzipIndex.h"
#include "io/LoadError.h"

#include <algorithm>
#include <utility>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <memory>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <zlib.h>

namespace sl {

namespace {

struct FileCloser {
    void operator()(std::FILE* f) const {
        if (f) std::fclose(f);
    }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

constexpr std::size_t kChunk = 1 << 20;

FilePtr openOrThrow(const std::string& path) {
    std::error_code ec;
    auto status = std::filesystem::status(path, ec);
    if (ec) throw LoadError(ErrorKind::Read, path, "cannot open: " + ec.message());
    if (std::filesystem::is_directory(status))
        throw LoadError(ErrorKind::Read, path, "is a directory, expected a trace file");
    // A FIFO or device would block or never end: only regular files are traces.
    if (!std::filesystem::is_regular_file(status))
        throw LoadError(ErrorKind::Read, path, "is not a regular file");
    FilePtr f(std::fopen(path.c_str(), "rb"));
    if (!f) throw LoadError(ErrorKind::Read, path, std::string("cannot open: ") + std::strerror(errno));
    return f;
}

[[noreturn]] void tooLarge(const std::string& path, std::int64_t maxBytes) {
    if (maxBytes >= kMaxUncompressedBytes)
        throw LoadError(ErrorKind::Limit, path,
                        "file is larger than 4 GiB of uncompressed JSON, the most the parser accepts; "
                        "split the trace or profile fewer steps");
    throw LoadError(ErrorKind::Limit, path,
                    "uncompressed trace is larger than the " + std::to_string(maxBytes / 1'000'000) +
                        " MB of memory available for it; free memory or load fewer ranks");
}

// Maps a regular file read-only, followed by zero pages for simdjson's padding: the page cache
// is used as is, with no copy and no fresh pages to clear. Returns an empty buffer when mapping
// is not possible (the caller then reads the file).
TraceBuffer mapPlain(std::FILE* f, std::int64_t size) {
    struct stat st {};
    int fd = fileno(f);
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != size) return {};
    const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    const std::size_t length = static_cast<std::size_t>(size);
    const std::size_t fileBytes = (length + page - 1) / page * page;
    const std::size_t total = (length + simdjson::SIMDJSON_PADDING + page - 1) / page * page + page;
    void* region = mmap(nullptr, total, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED) return {};
    void* mapped = mmap(region, fileBytes, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fd, 0);
    if (mapped == MAP_FAILED) {
        munmap(region, total);
        return {};
    }
    return TraceBuffer::fromMapping(region, length, total);
}

TraceBuffer readPlain(const std::string& path, std::FILE* f, std::int64_t size,
                      const ByteProgressFn& progress, std::int64_t maxBytes) {
    if (size > maxBytes) tooLarge(path, maxBytes);
    if (TraceBuffer mapped = mapPlain(f, size); mapped.size() == static_cast<std::size_t>(size)) {
        if (progress && !progress(size)) throw LoadCancelled();
        return mapped;
    }
    std::string buffer(static_cast<std::size_t>(size) + simdjson::SIMDJSON_PADDING, '\0');
    std::size_t done = 0;
    while (done < static_cast<std::size_t>(size)) {
        std::size_t want = std::min(kChunk, static_cast<std::size_t>(size) - done);
        std::size_t got = std::fread(buffer.data() + done, 1, want, f);
        if (got == 0) {
            if (std::ferror(f))
                throw LoadError(ErrorKind::Read, path, std::string("read failed: ") + std::strerror(errno));
            break; // file shrank while reading
        }
        done += got;
        if (progress && !progress(static_cast<std::int64_t>(done))) throw LoadCancelled();
    }
    return TraceBuffer(std::move(buffer), done);
}

// Fills buf with up to n compressed bytes; returns 0 at the end of the input.
using ByteSource = std::function<std::size_t(unsigned char* buf, std::size_t n)>;

// Where inflated bytes go: space() returns room for at least one byte (avail: how much),
// wrote(n) says n bytes of it were filled.
struct InflateSink {
    std::function<char*(std::size_t& avail)> space;
    std::function<void(std::size_t n)> wrote;
};

// Inflates gzip data (concatenated members too) from source into sink. Throws LoadError on corrupt
// or truncated data and when more than maxBytes come out. index: when given, gets a checkpoint at
// a deflate block boundary about every index->spacing bytes of output (docs/Loader.md, "Lazy args").
void inflateGzip(const std::string& path, const ByteSource& source, const ByteProgressFn& progress,
                 std::int64_t maxBytes, const InflateSink& sink, GzipIndex* index = nullptr) {
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 32) != Z_OK) throw LoadError(ErrorKind::Limit, path, "cannot initialise zlib");
    std::unique_ptr<z_stream, void (*)(z_stream*)> guard(&zs, [](z_stream* s) { inflateEnd(s); });

    std::vector<unsigned char> in(kChunk);
    const auto limit = static_cast<std::size_t>(maxBytes);
    std::size_t produced = 0;
    std::int64_t consumed = 0;
    int ret = Z_OK;
    bool streamEnded = false;
    std::size_t memberAt = 0; // output offset where the current member starts
    std::vector<unsigned char> window(index ? GzipIndex::kWindowBytes : 0);
    for (;;) {
        if (zs.avail_in == 0) {
            std::size_t got = source(in.data(), in.size());
            if (got == 0) break;
            zs.next_in = in.data();
            zs.avail_in = static_cast<uInt>(got);
            if (progress && !progress(consumed + static_cast<std::int64_t>(got))) throw LoadCancelled();
        }
        if (streamEnded) {
            // Like gzip(1), ignore what follows the last member when it is not another member
            // (zero padding, garbage appended by a copy tool).
            if (zs.avail_in < 2 || zs.next_in[0] != 0x1f || zs.next_in[1] != 0x8b) break;
            // Concatenated gzip members: start the next one.
            if (inflateReset(&zs) != Z_OK) throw LoadError(path, "corrupt gzip data", consumed);
            streamEnded = false;
            memberAt = produced;
        }
        if (produced > limit) tooLarge(path, maxBytes);
        std::size_t avail = 0;
        zs.next_out = reinterpret_cast<Bytef*>(sink.space(avail));
        zs.avail_out = static_cast<uInt>(std::min<std::size_t>(avail, 1u << 30));
        uInt availBefore = zs.avail_in;
        std::size_t outBefore = zs.avail_out;
        // With an index, inflate stops at each block boundary (Z_BLOCK) so that one can be recorded.
        ret = inflate(&zs, index ? Z_BLOCK : Z_NO_FLUSH);
        consumed += availBefore - zs.avail_in;
        produced += outBefore - zs.avail_out;
        sink.wrote(outBefore - zs.avail_out);
        // data_type: bit 128 at the end of a block or of the header, bit 64 in the last block
        // (nothing follows to restart from), bits 0-2 the unused bits of the last byte read.
        if (index && ret == Z_OK && (zs.data_type & 0xc0) == 0x80 && index->due(produced)) {
            uInt have = 0;
            if (produced > memberAt) inflateGetDictionary(&zs, window.data(), &have);
            index->add(produced, consumed, zs.data_type & 7, window.data(), have);
        }
        if (ret == Z_STREAM_END) {
            streamEnded = true;
            continue;
        }
        if (ret == Z_BUF_ERROR && zs.avail_in == 0) continue; // needs more input
        if (ret != Z_OK && ret != Z_BUF_ERROR)
            throw LoadError(path, std::string("corrupt gzip data: ") + (zs.msg ? zs.msg : "inflate failed"),
                            consumed);
    }
    if (!streamEnded) throw LoadError(path, "truncated gzip data (stream ends early)", consumed);
    if (produced > limit) tooLarge(path, maxBytes);
    if (index) index->finish(produced);
}

TraceBuffer readGzip(const std::string& path, const ByteSource& source, std::int64_t size,
                     const ByteProgressFn& progress, std::int64_t maxBytes, GzipIndex* index = nullptr) {
    // Guess 8x expansion, typical for JSON; grows by doubling.
    std::string out;
    const auto limit = static_cast<std::size_t>(maxBytes);
    out.resize(std::min(static_cast<std::size_t>(std::max<std::int64_t>(size, 1)) * 8,
                        limit + simdjson::SIMDJSON_PADDING + 1));
    std::size_t produced = 0;
    InflateSink sink;
    sink.space = [&](std::size_t& avail) {
        if (produced + simdjson::SIMDJSON_PADDING >= out.size())
            out.resize(std::min(out.size() * 2, limit + simdjson::SIMDJSON_PADDING + 1));
        avail = out.size() - produced - simdjson::SIMDJSON_PADDING;
        return out.data() + produced;
    };
    sink.wrote = [&](std::size_t n) { produced += n; };
    inflateGzip(path, source, progress, maxBytes, sink, index);
    // Shrink the guess, keep zeroed padding after the data.
    out.resize(produced + simdjson::SIMDJSON_PADDING);
    std::fill(out.begin() + static_cast<std::ptrdiff_t>(produced), out.end(), '\0');
    out.shrink_to_fit();
    return TraceBuffer(std::move(out), produced);
}

} // namespace

TraceBuffer TraceBuffer::fromMapping(void* mapping, std::size_t length, std::size_t mappedBytes) {
    TraceBuffer b;
    b.mapping_ = mapping;
    b.mappedBytes_ = mappedBytes;
    b.data_ = static_cast<const char*>(mapping);
    b.length_ = length;
    b.capacity_ = mappedBytes;
    return b;
}

TraceBuffer::TraceBuffer(TraceBuffer&& other) noexcept {
    *this = std::move(other);
}

TraceBuffer& TraceBuffer::operator=(TraceBuffer&& other) noexcept {
    if (this == &other) return *this;
    release();
    bool owned = other.mapping_ == nullptr;
    storage_ = std::move(other.storage_);
    mapping_ = std::exchange(other.mapping_, nullptr);
    mappedBytes_ = std::exchange(other.mappedBytes_, 0);
    length_ = std::exchange(other.length_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    data_ = owned ? storage_.data() : static_cast<const char*>(mapping_);
    other.data_ = nullptr;
    return *this;
}

TraceBuffer::~TraceBuffer() {
    release();
}

void TraceBuffer::release() {
    if (mapping_) munmap(mapping_, mappedBytes_);
    mapping_ = nullptr;
    mappedBytes_ = 0;
    std::string().swap(storage_);
    data_ = nullptr;
    length_ = 0;
    capacity_ = 0;
}

BlockFile::~BlockFile() {
    if (fd_ >= 0) ::close(fd_);
}

bool BlockFile::open(const std::string& path) {
    path_ = path;
    struct stat st {};
    // Opening a FIFO would block until a writer comes: only regular files are opened here.
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0 || fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) return false;
    size_ = st.st_size;
    unsigned char magic[2] = {0, 0};
    if (pread(fd_, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b) return false;
    // The pieces are read front to back: let the kernel read ahead.
    posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
    return true;
}

void BlockFile::read(std::int64_t offset, std::size_t len, char* dst) const {
    while (len > 0) {
        ssize_t got = pread(fd_, dst, len, offset);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0)
            throw LoadError(path_, std::string("read failed: ") + std::strerror(errno), offset,
                            ErrorKind::Read);
        if (got == 0) throw LoadError(path_, "file shrank while reading", offset, ErrorKind::Read);
        dst += got;
        offset += got;
        len -= static_cast<std::size_t>(got);
    }
}

std::int64_t fileSizeOnDisk(const std::string& path) {
    std::error_code ec;
    auto size = std::filesystem::file_size(path, ec);
    return ec ? -1 : static_cast<std::int64_t>(size);
}

TraceBuffer readTraceFile(const std::string& path, const ByteProgressFn& progress, std::int64_t maxBytes,
                          GzipIndex* index) {
    maxBytes = std::min(maxBytes, kMaxUncompressedBytes);
    FilePtr f = openOrThrow(path);
    std::int64_t size = fileSizeOnDisk(path);
    if (size < 0) throw LoadError(ErrorKind::Read, path, "cannot determine file size");
    if (size == 0) throw LoadError(ErrorKind::Format, path, "empty file");
    unsigned char magic[2] = {0, 0};
    std::size_t got = std::fread(magic, 1, 2, f.get());
    std::rewind(f.get());
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        std::FILE* file = f.get();
        ByteSource source = [&](unsigned char* buf, std::size_t n) {
            std::size_t read = std::fread(buf, 1, n, file);
            if (read == 0 && std::ferror(file))
                throw LoadError(ErrorKind::Read, path, std::string("read failed: ") + std::strerror(errno));
            return read;
        };
        return readGzip(path, source, size, progress, maxBytes, index);
    }
    return readPlain(path, f.get(), size, progress, maxBytes);
}

TraceBuffer decodeTraceBytes(const std::string& name, std::string_view bytes, std::int64_t maxBytes) {
    maxBytes = std::min(maxBytes, kMaxUncompressedBytes);
    if (bytes.empty()) throw LoadError(ErrorKind::Format, name, "empty file");
    if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
        static_cast<unsigned char>(bytes[1]) == 0x8b) {
        std::size_t pos = 0;
        ByteSource source = [&](unsigned char* buf, std::size_t n) {
            std::size_t take = std::min(n, bytes.size() - pos);
            std::memcpy(buf, bytes.data() + pos, take);
            pos += take;
            return take;
        };
        return readGzip(name, source, static_cast<std::int64_t>(bytes.size()), {}, maxBytes);
    }
    if (static_cast<std::int64_t>(bytes.size()) > maxBytes) tooLarge(name, maxBytes);
    std::string storage(bytes.size() + simdjson::SIMDJSON_PADDING, '\0');
    std::memcpy(storage.data(), bytes.data(), bytes.size());
    return TraceBuffer(std::move(storage), bytes.size());
}

GzipBlocks::~GzipBlocks() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    changed_.notify_all();
    if (producer_.joinable()) producer_.join();
    if (fd_ >= 0) ::close(fd_);
}

bool GzipBlocks::open(const std::string& path, std::int64_t maxBytes, const ByteProgressFn& progress,
                      std::shared_ptr<GzipIndex> index) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0) return false;
    unsigned char magic[2] = {0, 0};
    if (pread(fd_, magic, 2, 0) != 2 || magic[0] != 0x1f || magic[1] != 0x8b) return false;
    posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
    stamp_ = FileStamp::ofDescriptor(fd_);
    if (unsigned char size[4]; stamp_.size >= 18 && pread(fd_, size, 4, stamp_.size - 4) == 4)
        statedSize_ = size[0] | size[1] << 8 | size[2] << 16 | std::int64_t{size[3]} << 24;
    producer_ = std::thread([this, path, maxBytes, progress, index = std::move(index)] {
        ByteSource source = [this, &path](unsigned char* buf, std::size_t n) -> std::size_t {
            for (;;) {
                ssize_t got = ::read(fd_, buf, n);
                if (got < 0 && errno == EINTR) continue;
                if (got < 0)
                    throw LoadError(ErrorKind::Read, path,
                                    std::string("read failed: ") + std::strerror(errno));
                return static_cast<std::size_t>(got);
            }
        };
        std::string block;
        std::size_t filled = 0;
        // A full block goes to the queue; the producer waits while kQueued blocks are unread.
        auto hand = [&](bool last) {
            block.resize(filled);
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [&] { return stop_ || queue_.size() < kQueued; });
            if (stop_) throw LoadCancelled();
            if (!block.empty()) queue_.push_back(std::move(block));
            ended_ = last;
            lock.unlock();
            changed_.notify_all();
            block.clear();
            filled = 0;
        };
        InflateSink sink;
        sink.space = [&](std::size_t& avail) {
            if (filled == kBlockBytes) hand(false);
            if (block.size() != kBlockBytes) block.resize(kBlockBytes);
            avail = kBlockBytes - filled;
            return block.data() + filled;
        };
        sink.wrote = [&](std::size_t n) { filled += n; };
        try {
            inflateGzip(path, source, progress, maxBytes, sink, index.get());
            hand(true);
        } catch (...) {
            std::lock_guard lock(mutex_);
            error_ = std::current_exception();
            ended_ = true;
        }
        changed_.notify_all();
    });
    return true;
}

bool GzipBlocks::next(std::string& out) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return !queue_.empty() || ended_; });
    if (queue_.empty()) {
        if (error_) std::rethrow_exception(error_);
        return false;
    }
    out.append(queue_.front());
    queue_.pop_front();
    lock.unlock();
    changed_.notify_all();
    return true;
}

} // namespace sl
