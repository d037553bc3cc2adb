#include "io/FileReader.h"

#include "io/LoadError.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
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
    if (std::filesystem::is_directory(path, ec))
        throw LoadError(path, "is a directory, expected a trace file");
    FilePtr f(std::fopen(path.c_str(), "rb"));
    if (!f) throw LoadError(path, std::string("cannot open: ") + std::strerror(errno));
    return f;
}

TraceBuffer readPlain(const std::string& path, std::FILE* f, std::int64_t size,
                      const ByteProgressFn& progress) {
    std::string buffer(static_cast<std::size_t>(size) + simdjson::SIMDJSON_PADDING, '\0');
    std::size_t done = 0;
    while (done < static_cast<std::size_t>(size)) {
        std::size_t want = std::min(kChunk, static_cast<std::size_t>(size) - done);
        std::size_t got = std::fread(buffer.data() + done, 1, want, f);
        if (got == 0) {
            if (std::ferror(f)) throw LoadError(path, std::string("read failed: ") + std::strerror(errno));
            break; // file shrank while reading
        }
        done += got;
        if (progress && !progress(static_cast<std::int64_t>(done))) throw LoadCancelled();
    }
    return TraceBuffer(std::move(buffer), done);
}

TraceBuffer readGzip(const std::string& path, std::FILE* f, std::int64_t size,
                     const ByteProgressFn& progress) {
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 32) != Z_OK) throw LoadError(path, "cannot initialise zlib");
    std::unique_ptr<z_stream, void (*)(z_stream*)> guard(&zs, [](z_stream* s) { inflateEnd(s); });

    std::vector<unsigned char> in(kChunk);
    // Guess 8x expansion, typical for JSON; grows by doubling.
    std::string out;
    out.resize(static_cast<std::size_t>(std::max<std::int64_t>(size, 1) * 8));
    std::size_t produced = 0;
    std::int64_t consumed = 0;
    int ret = Z_OK;
    bool streamEnded = false;
    for (;;) {
        if (zs.avail_in == 0) {
            std::size_t got = std::fread(in.data(), 1, in.size(), f);
            if (got == 0) {
                if (std::ferror(f))
                    throw LoadError(path, std::string("read failed: ") + std::strerror(errno));
                break;
            }
            zs.next_in = in.data();
            zs.avail_in = static_cast<uInt>(got);
            if (progress && !progress(consumed + static_cast<std::int64_t>(got))) throw LoadCancelled();
        }
        if (streamEnded) {
            // Concatenated gzip members: start the next one.
            if (inflateReset(&zs) != Z_OK) throw LoadError(path, "corrupt gzip data", consumed);
            streamEnded = false;
        }
        if (produced + simdjson::SIMDJSON_PADDING >= out.size()) out.resize(out.size() * 2);
        zs.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
        zs.avail_out = static_cast<uInt>(
            std::min<std::size_t>(out.size() - produced - simdjson::SIMDJSON_PADDING, 1u << 30));
        uInt availBefore = zs.avail_in;
        std::size_t outBefore = zs.avail_out;
        ret = inflate(&zs, Z_NO_FLUSH);
        consumed += availBefore - zs.avail_in;
        produced += outBefore - zs.avail_out;
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
    // Shrink the guess, keep zeroed padding after the data.
    out.resize(produced + simdjson::SIMDJSON_PADDING);
    std::fill(out.begin() + static_cast<std::ptrdiff_t>(produced), out.end(), '\0');
    out.shrink_to_fit();
    return TraceBuffer(std::move(out), produced);
}

} // namespace

std::int64_t fileSizeOnDisk(const std::string& path) {
    std::error_code ec;
    auto size = std::filesystem::file_size(path, ec);
    return ec ? -1 : static_cast<std::int64_t>(size);
}

TraceBuffer readTraceFile(const std::string& path, const ByteProgressFn& progress) {
    FilePtr f = openOrThrow(path);
    std::int64_t size = fileSizeOnDisk(path);
    if (size < 0) throw LoadError(path, "cannot determine file size");
    if (size == 0) throw LoadError(path, "empty file");
    unsigned char magic[2] = {0, 0};
    std::size_t got = std::fread(magic, 1, 2, f.get());
    std::rewind(f.get());
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) return readGzip(path, f.get(), size, progress);
    return readPlain(path, f.get(), size, progress);
}

} // namespace sl
