#include "models/PipelineSchedule.h"

#include <algorithm>

namespace sl {

std::vector<int> oneFOneBSchedule(int stages, int stage, int microbatches) {
    const int warmup = std::min(stages - stage - 1, microbatches);
    std::vector<int> order;
    for (int m = 0; m < warmup; ++m)
        order.push_back(m);
    for (int m = warmup; m < microbatches; ++m) {
        order.push_back(m);
        order.push_back(-(m - warmup + 1));
    }
    for (int m = microbatches - warmup; m < microbatches; ++m)
        order.push_back(-(m + 1));
    return order;
}

} // namespace sl
