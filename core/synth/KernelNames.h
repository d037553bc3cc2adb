#pragma once
// The kernel names the synthetic traces use, as PyTorch 2.x on Ampere / Hopper and NCCL 2.18+
// write them (see core/synth/README.md), so that the classifier and the cost model see real names.
#include "synth/Program.h"
#include "synth/SynthConfig.h"

#include <string>

namespace sl::synth {

// cuBLAS's GEMM kernel for the GPU generation (nt: the transposed-operand form of backward).
const char* gemmKernel(const GpuSpec& gpu, bool nt);

// NCCL's kernel for a collective of this kind and data type in a group of groupSize ranks.
std::string ncclKernelName(CommKind k, const char* dtype, const SynthConfig& c, int groupSize);

inline constexpr const char* kBf16 = "c10::BFloat16";

inline constexpr const char* kLayerNormFwd =
    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, "
    "c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)";
inline constexpr const char* kLayerNormBwd =
    "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<c10::BFloat16, float>("
    "c10::BFloat16 const*, c10::BFloat16 const*, float const*, float const*, c10::BFloat16 const*, "
    "c10::BFloat16*, int)";
inline constexpr const char* kAdd =
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, "
    "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, "
    "3>)";
inline constexpr const char* kGelu =
    "void at::native::vectorized_elementwise_kernel<4, "
    "at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, "
    "at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda("
    "c10::BFloat16)#1}, at::detail::Array<char*, 2> >(int, at::native::GeluCUDAKernelImpl(at::"
    "TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()"
    "() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2>)";
inline constexpr const char* kGeluBwd =
    "void at::native::vectorized_elementwise_kernel<4, at::native::GeluBackwardCUDAKernelImpl(at::"
    "TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()"
    "() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, at::detail::Array<char*, 3> >(int, at::native::"
    "GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() "
    "const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, "
    "at::detail::Array<char*, 3>)";
inline constexpr const char* kFlashFwd =
    "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<128, 128, 64, 4, false, "
    "false, "
    "cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, "
    "true, false, false, true, true, false, false>(pytorch_flash::Flash_fwd_params)";
inline constexpr const char* kFlashBwd =
    "void "
    "pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<pytorch_flash::Flash_bwd_kernel_traits<128, "
    "64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 64, "
    "128, "
    "8, cutlass::bfloat16_t> >, true, false, false, false, false, true, "
    "false>(pytorch_flash::Flash_bwd_params)";
inline constexpr const char* kEmbedding =
    "void at::native::(anonymous namespace)::indexSelectLargeIndex<c10::BFloat16, long, unsigned int, 2, 2, "
    "-2, "
    "true>(at::cuda::detail::TensorInfo<c10::BFloat16, unsigned int>, at::cuda::detail::TensorInfo<c10::"
    "BFloat16 const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, "
    "unsigned "
    "int, unsigned int, long)";
inline constexpr const char* kEmbeddingBwd =
    "void at::native::(anonymous namespace)::embedding_backward_feature_kernel<c10::BFloat16, float, "
    "long>(long "
    "const*, c10::BFloat16 const*, c10::BFloat16*, int, long, int, int)";
inline constexpr const char* kSoftmax =
    "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, c10::BFloat16, float, c10::BFloat16, at::"
    "native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(c10::BFloat16*, c10::BFloat16 const*, int)";
inline constexpr const char* kSoftmaxBwd =
    "void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, c10::BFloat16, float, c10::BFloat16, "
    "at::"
    "native::(anonymous namespace)::LogSoftMaxBackwardEpilogue>(c10::BFloat16*, c10::BFloat16 const*, c10::"
    "BFloat16 const*, long)";
inline constexpr const char* kFill = "void at::native::vectorized_elementwise_kernel<4, "
                                     "at::native::FillFunctor<float>, at::detail::Array<char*, "
                                     "1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)";
inline constexpr const char* kNll =
    "void nll_loss_forward_reduce_cuda_kernel_2d<c10::BFloat16, float, long>(c10::BFloat16*, c10::BFloat16*, "
    "c10::BFloat16 const*, long const*, c10::BFloat16 const*, bool, long, long, long, long)";
inline constexpr const char* kNllBwd =
    "void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<c10::BFloat16, long>("
    "c10::BFloat16*, c10::BFloat16 const*, long const*, c10::BFloat16 const*, c10::BFloat16 const*, bool, "
    "int, "
    "int, long, long)";
inline constexpr const char* kAdam =
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::"
    "TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::"
    "ADAM_MODE)1, false>, double*, double, double, double, double, double, bool, float*, float*>(at::native::"
    "(anonymous namespace)::TensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<"
    "float, 4, (at::native::ADAM_MODE)1, false>, double*, double, double, double, double, double, bool, "
    "float*, "
    "float*)";

} // namespace sl::synth
