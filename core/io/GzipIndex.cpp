#include "io/GzipIndex.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include <unistd.h>

#include <zlib.h>

namespace sl {

void GzipIndex::add(std::uint64_t out, std::int64_t in, int bits, const unsigned char* window,
                    std::size_t windowBytes) {
    Checkpoint point;
    point.out = out;
    point.in = in;
    point.bits = bits;
    windowBytes = std::min(windowBytes, kWindowBytes);
    if (windowBytes > 0) {
        // JSON text deflates about 5 to 10 fold: the windows are most of the index.
        uLongf packed = compressBound(static_cast<uLong>(windowBytes));
        point.window.resize(packed);
        if (compress2(reinterpret_cast<Bytef*>(point.window.data()), &packed, window,
                      static_cast<uLong>(windowBytes), 1) != Z_OK)
            return; // no memory for this one: the checkpoint before it serves
        point.window.resize(packed);
        point.window.shrink_to_fit();
        point.windowBytes = static_cast<std::uint32_t>(windowBytes);
    }
    points_.push_back(std::move(point));
}

std::size_t GzipIndex::indexBytes() const {
    std::size_t bytes = sizeof(*this) + points_.capacity() * sizeof(Checkpoint);
    for (const auto& p : points_)
        bytes += p.window.capacity();
    return bytes;
}

std::size_t GzipIndex::memoryBytes() const {
    std::lock_guard lock(mutex_);
    return indexBytes() + span_.capacity();
}

namespace {

// The compressed file read forward from an offset into zs's input.
class CompressedInput {
public:
    CompressedInput(int fd, std::int64_t at, z_stream& zs) : fd_(fd), at_(at), zs_(zs), buffer_(kBytes) {
        zs_.next_in = buffer_.data();
        zs_.avail_in = 0;
    }
    // Makes zs hold at least n unread bytes; false at the end of the file or on a read error.
    bool ensure(std::size_t n) {
        if (zs_.avail_in >= n) return true;
        std::memmove(buffer_.data(), zs_.next_in, zs_.avail_in);
        zs_.next_in = buffer_.data();
        while (zs_.avail_in < n) {
            ssize_t got = pread(fd_, buffer_.data() + zs_.avail_in, buffer_.size() - zs_.avail_in, at_);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) {
                failed_ = got < 0;
                return false;
            }
            at_ += got;
            zs_.avail_in += static_cast<uInt>(got);
        }
        return true;
    }
    void skip(std::size_t n) {
        zs_.next_in += n;
        zs_.avail_in -= static_cast<uInt>(n);
    }
    // Compressed offset of the next unread byte, for messages.
    std::int64_t offset() const { return at_ - static_cast<std::int64_t>(zs_.avail_in); }
    bool readFailed() const { return failed_; }

private:
    static constexpr std::size_t kBytes = 1 << 16;
    int fd_;
    std::int64_t at_;
    z_stream& zs_;
    std::vector<unsigned char> buffer_;
    bool failed_ = false;
};

} // namespace

bool GzipIndex::inflateSpan(int fd, std::size_t k, std::uint64_t end, std::string& why) const {
    const Checkpoint& point = points_[k];
    z_stream zs{};
    if (inflateInit2(&zs, -15) != Z_OK) {
        why = "cannot initialise zlib";
        return false;
    }
    std::unique_ptr<z_stream, void (*)(z_stream*)> guard(&zs, [](z_stream* s) { inflateEnd(s); });
    CompressedInput input(fd, point.in - (point.bits ? 1 : 0), zs);
    auto endsEarly = [&] {
        why = input.readFailed() ? std::string("read failed (") + std::strerror(errno) + ")"
                                 : "the gzip data ends early (reload the file)";
        return false;
    };
    // The checkpoint sits inside a byte: its unused bits come first.
    if (point.bits) {
        if (!input.ensure(1)) return endsEarly();
        const int byte = zs.next_in[0];
        input.skip(1);
        inflatePrime(&zs, point.bits, byte >> (8 - point.bits));
    }
    if (point.windowBytes > 0) {
        unsigned char window[kWindowBytes];
        uLongf n = kWindowBytes;
        if (uncompress(window, &n, reinterpret_cast<const Bytef*>(point.window.data()),
                       static_cast<uLong>(point.window.size())) != Z_OK ||
            n != point.windowBytes || inflateSetDictionary(&zs, window, static_cast<uInt>(n)) != Z_OK) {
            why = "the gzip index is damaged";
            return false;
        }
    }
    span_.resize(static_cast<std::size_t>(end - point.out));
    span_.shrink_to_fit();
    zs.next_out = reinterpret_cast<Bytef*>(span_.data());
    zs.avail_out = static_cast<uInt>(span_.size());
    bool raw = true; // the checkpoint's member is inflated raw: its trailer is not read
    while (zs.avail_out > 0) {
        if (zs.avail_in == 0 && !input.ensure(1)) return endsEarly();
        const int ret = inflate(&zs, Z_NO_FLUSH);
        if (ret == Z_STREAM_END) {
            if (zs.avail_out == 0) break;
            // The member ended before the range: skip its trailer (CRC and size), go on with the
            // next member, whose header inflate reads.
            if (raw) {
                if (!input.ensure(8)) return endsEarly();
                input.skip(8);
            }
            if (!input.ensure(2) || zs.next_in[0] != 0x1f || zs.next_in[1] != 0x8b) return endsEarly();
            if (inflateReset2(&zs, 15 + 16) != Z_OK) {
                why = "cannot initialise zlib";
                return false;
            }
            raw = false;
            continue;
        }
        if (ret == Z_BUF_ERROR && zs.avail_in == 0) continue; // needs more input
        if (ret != Z_OK) {
            why = std::string("corrupt gzip data (") + (zs.msg ? zs.msg : "inflate failed") +
                  ") at compressed byte " + std::to_string(input.offset()) + " (reload the file)";
            return false;
        }
    }
    return true;
}

bool GzipIndex::read(int fd, std::uint64_t offset, std::uint32_t length, char* dst, std::string& why) const {
    std::lock_guard lock(mutex_);
    const std::uint64_t end = offset + length;
    if (!finished() || points_.empty() || end > size_) {
        why = "byte range " + std::to_string(offset) + "+" + std::to_string(length) +
              " is not in the indexed gzip data";
        return false;
    }
    if (offset < spanAt_ || end > spanAt_ + span_.size()) {
        // The last checkpoint at or before offset; inflate to the next one, or past it to the
        // range's end when the range straddles it.
        auto after = std::upper_bound(points_.begin(), points_.end(), offset,
                                      [](std::uint64_t o, const Checkpoint& p) { return o < p.out; });
        const auto k = static_cast<std::size_t>(after - points_.begin()) - 1;
        const std::uint64_t next = k + 1 < points_.size() ? points_[k + 1].out : size_;
        if (!inflateSpan(fd, k, std::max(next, end), why)) {
            std::string().swap(span_);
            spanAt_ = 0;
            return false;
        }
        spanAt_ = points_[k].out;
    }
    std::memcpy(dst, span_.data() + (offset - spanAt_), length);
    return true;
}

} // namespace sl
