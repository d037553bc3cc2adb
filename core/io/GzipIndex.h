#pragma once
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "trace/LazyArgs.h"

namespace sl {

// Random access into the inflated text of a gzip file (docs/Loader.md, "Lazy args"): while the
// file is inflated once for the load, a checkpoint is recorded at a deflate block boundary about
// every spacing bytes of output; reading a range back inflates from the checkpoint before it only.
// Concatenated members are followed across (a range may start in one member and end in the next).
class GzipIndex final : public FileContents {
public:
    // 1 MB: on a 217 MB trace as gzip -6 (blocks of about 1 MB of output), 172 checkpoints, a
    // 608 KB index and 1.6 ms to read one event back (median); measured in docs/Loader.md.
    static constexpr std::uint64_t kDefaultSpacing = 1 << 20;
    static constexpr std::size_t kWindowBytes = 32768; // deflate's largest back-reference

    explicit GzipIndex(std::uint64_t spacing = kDefaultSpacing) : spacing_(spacing) {}

    // Building, by the one thread that inflates the file (io/FileReader.cpp, inflateGzip).
    // True when a checkpoint at uncompressed offset out is due.
    bool due(std::uint64_t out) const { return points_.empty() || out >= points_.back().out + spacing_; }
    // A deflate block boundary at uncompressed offset out and compressed offset in (the first
    // byte not wholly consumed), bits of the byte before in still unused, window: up to the last
    // 32 KB of the member's output before out (empty at a member's start).
    void add(std::uint64_t out, std::int64_t in, int bits, const unsigned char* window,
             std::size_t windowBytes);
    // The inflate reached the end of the data: out bytes in all.
    void finish(std::uint64_t out) { size_ = out; }
    bool finished() const { return size_ != kUnfinished; }

    std::uint64_t size() const override { return size_; }
    bool read(int fd, std::uint64_t offset, std::uint32_t length, char* dst, std::string& why) const override;
    // The checkpoints (with their compressed windows) and the last inflated span.
    std::size_t memoryBytes() const override;
    std::size_t checkpoints() const { return points_.size(); }
    // Uncompressed offset of checkpoint k (k < checkpoints()).
    std::uint64_t checkpointAt(std::size_t k) const { return points_[k].out; }
    // Bytes held by the checkpoints alone (the index without the read-back cache).
    std::size_t indexBytes() const;

private:
    struct Checkpoint {
        std::uint64_t out = 0;
        std::int64_t in = 0;
        int bits = 0;
        std::uint32_t windowBytes = 0; // inflated size of window
        std::string window;            // the window, deflated (zlib format, level 1)
    };
    static constexpr std::uint64_t kUnfinished = ~std::uint64_t{0};
    // Inflates [points_[k].out, end) into span_ (end <= size_).
    bool inflateSpan(int fd, std::size_t k, std::uint64_t end, std::string& why) const;

    std::uint64_t spacing_;
    std::uint64_t size_ = kUnfinished;
    std::vector<Checkpoint> points_;
    // The last span inflated (reads of nearby events need no inflate), guarded by mutex_.
    mutable std::mutex mutex_;
    mutable std::string span_;
    mutable std::uint64_t spanAt_ = 0;
};

} // namespace sl
