#pragma once
// The role of a process group, from its description (torch.distributed pg_desc): one classifier
// for the parallel layout (structure/) and the collective model (models/), so a group never plays
// two roles (docs/Structure.md, "Structure").
#include <cstdint>
#include <string_view>

namespace sl {

enum class GroupRole : std::uint8_t { Data, Tensor, Pipeline, World, Other };

// "dp", "tp", "pp", "world", "other".
std::string_view groupRoleName(GroupRole role);

// The role a description names (Megatron / the generator's "dp", "tp", "pp_fwd", DeepSpeed's
// "data_parallel", "DATA_PARALLEL_GROUP", ...), matched case-insensitively with the role as a word;
// world before pipeline before tensor before data, so "pp_dp" is a pipeline group.
GroupRole roleFromDescription(std::string_view desc);

} // namespace sl
