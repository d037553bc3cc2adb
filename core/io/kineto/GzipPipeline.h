#pragma once
// Gzip traces parsed in pieces as they are inflated (docs/Loader.md, "Gzip").
#include "io/kineto/PiecePipeline.h"

#include <cstdint>
#include <optional>
#include <string>

namespace sl::kineto {

// A gzip file parsed in pieces as it is inflated (docs/Loader.md, "Gzip"): a producer thread
// inflates blocks (GzipBlocks), this thread cuts them into pieces at event starts as they arrive,
// workers parse the pieces, and this thread merges them in file order. Only the pieces in flight
// are in memory, never the inflated file. Returns nothing when the whole file must be parsed
// instead (a head that is not a plain Kineto object, a piece that does not parse, corrupt gzip:
// the whole-file parse words every error), with *small set when the file turned out smaller than
// two pieces (its inflated bytes, to parse whole without inflating again) and then *lazy to read
// its args back through the inflate checkpoints. Throws only LoadCancelled.
std::optional<Rank> loadGzipInPieces(const std::string& path, std::int64_t disk, int loadOrder,
                                     const LoadOptions& options, std::int64_t maxBytes,
                                     std::optional<TraceBuffer>& small, LazyArgs& lazy);

} // namespace sl::kineto
