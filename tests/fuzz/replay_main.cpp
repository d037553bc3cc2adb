// A standalone driver for the fuzz entry points: feeds every file named on the command line (and
// every file under every directory named there, recursively, in name order) to
// LLVMFuzzerTestOneInput once, as libFuzzer does when it replays a corpus. It needs no libFuzzer,
// so g++ builds it, and the asan preset runs it under AddressSanitizer + UndefinedBehaviorSanitizer
// (scripts/ci-sanitizers.sh): a crash, a sanitizer report or an exception other than the ones the
// entry point catches ends the run with a non-zero exit. See docs/Testing.md.
//   usage: fuzz_replay_<target> FILE_OR_DIR...
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

// Regular files only: the corpus holds FIFOs and special entries for the CLI tests, which a
// fuzzer never sees as input.
void collect(const fs::path& path, std::vector<fs::path>& files) {
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) {
        files.push_back(path);
        return;
    }
    if (!fs::is_directory(path, ec)) {
        std::fprintf(stderr, "error: %s: not a file or directory\n", path.c_str());
        std::exit(2);
    }
    for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
        if (it->is_regular_file(ec)) files.push_back(it->path());
    if (ec) {
        std::fprintf(stderr, "error: %s: %s\n", path.c_str(), ec.message().c_str());
        std::exit(2);
    }
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
        return 2;
    }
    std::vector<fs::path> files;
    for (int i = 1; i < argc; ++i)
        collect(argv[i], files);
    std::sort(files.begin(), files.end());
    if (files.empty()) {
        std::fprintf(stderr, "error: no input files under the given paths\n");
        return 2;
    }
    std::size_t bytes = 0;
    for (const fs::path& f : files) {
        std::ifstream in(f, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "error: %s: cannot be read\n", f.c_str());
            return 2;
        }
        const std::vector<char> data{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
        // Named before the run, so that the last line before a sanitizer report says which input.
        std::fprintf(stderr, "replay %s (%zu bytes)\n", f.c_str(), data.size());
        try {
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(data.data()), data.size());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "error: %s: uncaught exception: %s\n", f.c_str(), e.what());
            return 1;
        } catch (...) {
            std::fprintf(stderr, "error: %s: uncaught exception of unknown type\n", f.c_str());
            return 1;
        }
        bytes += data.size();
    }
    std::printf("replayed %zu inputs (%zu bytes) through the entry point\n", files.size(), bytes);
    return 0;
}
