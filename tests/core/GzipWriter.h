// Gzip members written with zlib for the gzip tests: chosen levels and block sizes, so that a test
// controls where members and deflate blocks fall (docs/Loader.md, "Lazy args").
#pragma once
#include <QtGlobal>

#include <string>
#include <string_view>

#include <zlib.h>

namespace sltest {

// One gzip member holding text. memLevel 1 makes deflate blocks of about 128 symbols (many block
// boundaries in little data); level 0 writes stored blocks.
inline std::string gzipMember(std::string_view text, int level = 6, int memLevel = 8) {
    z_stream zs{};
    if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, memLevel, Z_DEFAULT_STRATEGY) != Z_OK)
        qFatal("deflateInit2 failed");
    std::string out;
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    zs.avail_in = static_cast<uInt>(text.size());
    int ret = Z_OK;
    while (ret != Z_STREAM_END) {
        char buf[1 << 14];
        zs.next_out = reinterpret_cast<Bytef*>(buf);
        zs.avail_out = sizeof buf;
        ret = deflate(&zs, Z_FINISH);
        if (ret != Z_OK && ret != Z_STREAM_END && ret != Z_BUF_ERROR) qFatal("deflate failed");
        out.append(buf, sizeof buf - zs.avail_out);
    }
    deflateEnd(&zs);
    return out;
}

} // namespace sltest
