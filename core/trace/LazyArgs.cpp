#include "trace/LazyArgs.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <simdjson.h>

namespace sl {

namespace {

FileStamp stampOf(const struct stat& st) {
    FileStamp s;
    s.size = st.st_size;
    s.mtimeNs = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    s.inode = static_cast<std::uint64_t>(st.st_ino);
    s.device = static_cast<std::uint64_t>(st.st_dev);
    return s;
}

// Closes the descriptor on every return path.
struct Fd {
    int fd;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

} // namespace

FileStamp FileStamp::ofDescriptor(int fd) {
    struct stat st {};
    if (fstat(fd, &st) != 0) return {};
    return stampOf(st);
}

FileStamp FileStamp::ofPath(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return {};
    return stampOf(st);
}

ArgsText LazyArgsFile::read(std::uint64_t offset, std::uint32_t length) const {
    if (length == 0) return {};
    std::lock_guard lock(mutex_);
    if (auto it = cache_.find(offset); it != cache_.end()) return {it->second, {}};
    auto failed = [&](const std::string& why) {
        return ArgsText{{}, path_ + ": cannot show the event's args: " + why};
    };
    Fd file{::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
    if (file.fd < 0) return failed(std::string("cannot open the trace file (") + std::strerror(errno) + ")");
    if (FileStamp::ofDescriptor(file.fd) != stamp_)
        return failed("the trace file changed since it was loaded (reload it)");
    const std::uint64_t size = contents_ ? contents_->size() : static_cast<std::uint64_t>(stamp_.size);
    if (offset + length > size)
        return failed("byte range " + std::to_string(offset) + "+" + std::to_string(length) +
                      " is past the end of the file");
    simdjson::padded_string text(length);
    if (contents_) {
        std::string why;
        if (!contents_->read(file.fd, offset, length, text.data(), why)) return failed(why);
    } else {
        std::size_t done = 0;
        while (done < length) {
            ssize_t got =
                pread(file.fd, text.data() + done, length - done, static_cast<off_t>(offset + done));
            if (got < 0 && errno == EINTR) continue;
            if (got < 0) return failed(std::string("read failed (") + std::strerror(errno) + ")");
            if (got == 0) return failed("the trace file shrank since it was loaded (reload it)");
            done += static_cast<std::size_t>(got);
        }
    }
    // The range was an args object when the file was parsed; parse it again in full (not only
    // its first token) so that a same-sized rewrite that kept the stamp cannot show garbage.
    simdjson::dom::parser parser;
    simdjson::dom::object object;
    if (parser.parse(text).get_object().get(object) != simdjson::SUCCESS)
        return failed("bytes " + std::to_string(offset) + "+" + std::to_string(length) +
                      " are no longer a JSON object (reload the file)");
    auto it = cache_.emplace(offset, std::string(text.data(), length)).first;
    cachedBytes_ += length;
    return {it->second, {}};
}

std::size_t LazyArgsFile::cachedBytes() const {
    std::lock_guard lock(mutex_);
    return cachedBytes_;
}

std::size_t LazyArgsFile::memoryBytes() const {
    return cachedBytes() + (contents_ ? contents_->memoryBytes() : 0);
}

} // namespace sl
