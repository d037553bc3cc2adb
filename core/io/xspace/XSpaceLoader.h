#pragma once
// The XLA / TensorFlow profiler's XSpace files (*.xplane.pb, as jax.profiler and TensorBoard's
// profiler plugin write them; plain or gzip), decoded with the schema subset in xplane.proto.
// One rank per GPU plane ("/device:GPU:N") with work: its "Stream #S" lines are GPU streams, its
// events kernels (or copies / sets) with the stats XLA gives them (correlation_id, hlo_op,
// hlo_module, tf_op, kernel_details); the derived lines (XLA Ops, XLA Modules, Steps, TensorFlow
// Ops...) repeat those events and are left out. The host plane ("/host:CPU") gives CPU threads: a
// thread whose runtime calls launch a GPU's work goes with that GPU's rank (linked by correlation
// id), the other threads with the first GPU's rank. Step markers (events named "StepMarker" or
// "train_step", or carrying a "step_num" stat, as jax.profiler.StepTraceAnnotation writes) become
// ProfilerStep#N annotations. A file without a host plane loads GPU-only, with a warning.
#include "io/KinetoLoader.h"
#include "trace/TraceSet.h"

#include <string>
#include <string_view>
#include <vector>

namespace sl {

// True when the start of a file looks like a serialized XSpace: its first field is a plane (field
// 1, length-delimited) whose own first field is a plane id, name, line or metadata table.
bool looksLikeXSpace(std::string_view head);
// True for a file named *.xplane.pb (or .xplane.pb.gz), or named *.pb (.pb.gz) with a start that
// looks like an XSpace.
bool isXSpaceFile(const std::string& path);
// True when every path is an XSpace file or a folder holding some (a jax.profiler log folder).
bool isXSpaceInput(const std::vector<std::string>& paths);

// The ranks of one file, or of bytes in memory (name stands for the file): one per GPU plane with
// work, numbered from firstRank in plane order. Throws LoadError naming the file on bad input.
std::vector<Rank> loadXSpaceFile(const std::string& path, int firstRank = 0, const LoadOptions& options = {});
std::vector<Rank> loadXSpaceBytes(std::string_view bytes, const std::string& name, int firstRank = 0,
                                  const LoadOptions& options = {});

// Files and folders of XSpace files as a rank set.
TraceSet loadXSpaceTraceSet(const std::vector<std::string>& paths, const LoadOptions& options = {});

} // namespace sl
