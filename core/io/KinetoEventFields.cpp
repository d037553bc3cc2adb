#include "io/KinetoEventFields.h"

namespace sl::detail {

ArgsKey argsKeyOf(std::string_view key) {
    if (key.empty()) return ArgsKey::Other;
    switch (key[0]) {
    case 'c':
        if (key == "correlation") return ArgsKey::Correlation;
        if (key == "cuda_sync_kind") return ArgsKey::CudaSyncKind;
        break;
    case 'd':
        if (key == "device") return ArgsKey::Device;
        if (key == "dtype") return ArgsKey::Dtype;
        break;
    case 's':
        if (key == "stream") return ArgsKey::Stream;
        break;
    case 'w':
        if (key == "wait_on_stream") return ArgsKey::WaitOnStream;
        if (key == "wait_on_cuda_event_record_corr_id") return ArgsKey::WaitOnEventRecordCorrelation;
        if (key == "wait_on_cuda_event_id") return ArgsKey::WaitOnCudaEventId;
        break;
    case 'n':
        if (key == "name") return ArgsKey::MetaName;
        break;
    case 'C':
        if (key == "Collective name") return ArgsKey::CollectiveName;
        if (key == "Concrete Inputs") return ArgsKey::Kept;
        break;
    case 'I':
        if (key == "In msg nelems") return ArgsKey::InMsgNelems;
        if (key == "Input Dims" || key == "Input type") return ArgsKey::Kept;
        break;
    case 'E':
        if (key == "Ev Idx") return ArgsKey::Kept;
        break;
    case 'R':
        if (key == "Record function id") return ArgsKey::Kept;
        break;
    case 'b':
        if (key == "bytes" || key == "blocks per SM") return ArgsKey::Kept;
        break;
    case 'g':
        if (key == "grid") return ArgsKey::Kept;
        break;
    case 'O':
        if (key == "Out msg nelems") return ArgsKey::OutMsgNelems;
        break;
    case 'G':
        if (key == "Group size") return ArgsKey::GroupSize;
        break;
    case 'P':
        if (key == "Process Group Name") return ArgsKey::ProcessGroupName;
        if (key == "Process Group Ranks") return ArgsKey::ProcessGroupRanks;
        break;
    default:
        break;
    }
    return ArgsKey::Other;
}

} // namespace sl::detail
