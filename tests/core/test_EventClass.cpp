// The event taxonomy (trace/EventClass.h) on names taken from the real traces in ../shared/traces
// and from samples/ (copied here, so the test never skips): the expected class of each is written
// by hand from what the kernel or call does, not computed with the classifier.
#include "TestSupport.h"

#include "analysis/Breakdown.h"
#include "models/KernelClass.h"
#include "trace/EventClass.h"

using namespace sl;

class TestEventClass : public QObject {
    Q_OBJECT

    static void addRow(const char* tag, EventKind kind, const char* name, const char* cls) {
        QTest::newRow(tag) << int(kind) << QByteArray(name) << QByteArray(cls);
    }

private slots:
    void realNames_data() {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("cls");
        const auto K = EventKind::Kernel;
        // dlrm-8rank-v100 (V100, cuBLAS, FBGEMM embeddings, NCCL 2.x kernel names)
        addRow("dlrm sgemm", K, "volta_sgemm_128x32_nt", "gemm");
        addRow("dlrm add", K,
               "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
               "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, "
               "at::detail::Array<char*, 3>)",
               "elementwise");
        addRow(
            "dlrm mean", K,
            "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, "
            "float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, "
            "float>, "
            "unsigned int, float, 4>)",
            "reduction");
        addRow("dlrm cat", K,
               "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 1, 128, "
               "1>(float*, "
               "at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 128, 1>, "
               "at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)",
               "data_movement");
        addRow(
            "dlrm embedding", K,
            "void split_embedding_codegen_forward_unweighted_kernel<float, float, float, false, long, 1ul, "
            "8ul>(at::GenericPackedTensorAccessor<float, 1ul, at::RestrictPtrTraits, long>)",
            "embedding_lookup");
        addRow("dlrm index", K,
               "void at::native::index_elementwise_kernel<128, 4, at::native::gpu_index_kernel<at::native::"
               "index_kernel_impl<at::native::OpaqueType<4> >(at::TensorIteratorBase&, c10::ArrayRef<long>, "
               "c10::ArrayRef<long>)::{lambda(char*, char*, long)#1}>(at::TensorIteratorBase&, "
               "c10::ArrayRef<long>, c10::ArrayRef<long>, "
               "at::native::index_kernel_impl<at::native::OpaqueType<4> "
               ">(at::TensorIteratorBase&, c10::ArrayRef<long>, c10::ArrayRef<long>)::{lambda(char*, char*, "
               "long)#1} const&)::{lambda(int)#1}>(int, at::native::gpu_index_kernel)",
               "data_movement");
        addRow("dlrm radix sort", K,
               "void cub::DeviceRadixSortSingleTileKernel<cub::DeviceRadixSortPolicy<long, int, "
               "int>::Policy800, "
               "false, long, int, int>(long const*, long*, int const*, int*, int, int, int)",
               "other_kernel");
        addRow("dlrm allreduce", K,
               "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
               "comm_kernel");
        addRow("dlrm sendrecv", K,
               "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
               "comm_kernel");
        addRow("dlrm memcpy", EventKind::GpuMemcpy, "Memcpy HtoD (Pinned -> Device)", "memcpy");
        addRow("dlrm launch", EventKind::Runtime, "cudaLaunchKernel", "runtime_call");
        addRow("dlrm stream sync", EventKind::Runtime, "cudaStreamSynchronize", "runtime_call");
        addRow("dlrm copy_ op", EventKind::CpuOp, "aten::copy_", "cpu_op");
        addRow("dlrm nccl range", EventKind::UserAnnotation, "nccl:all_to_all", "comm_op");
        addRow("dlrm step", EventKind::UserAnnotation, "ProfilerStep#10", "annotation");
        // single-rank/a100-nccl-metadata-rank0of2 (A100, cuDNN / CUTLASS convolutions, NCCL)
        addRow("a100 cutlass gemm", K,
               "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4>"
               "(cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4::Params)",
               "gemm");
        addRow("a100 conv fprop", K,
               "sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_"
               "stage4_"
               "warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer",
               "gemm");
        // cuDNN's batch-norm kernels and layout transposes are not convolutions (hand-classed: a
        // batch norm reduces over the batch, nchwToNhwc only moves data).
        addRow("a100 cudnn batch norm fwd", K,
               "void cudnn::bn_fw_tr_1C11_singleread<float, 512, true, 1, 2, 0>"
               "(cudnn::bn_fw_tr_1C11_args<float>)",
               "reduction");
        addRow("a100 cudnn batch norm bwd", K,
               "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 32, true, 1>"
               "(float, float, float, float, cudnnTensorStruct, float const*)",
               "reduction");
        addRow("a100 cudnn layout transpose", K,
               "void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, "
               "(cudnnKernelDataType_t)2>(cudnn::ops::nchw2nhwc_params_t<float>, float const*, float*)",
               "data_movement");
        addRow("a100 cudnn cutlass dgrad", K,
               "void cutlass_cudnn_infer::Kernel<cutlass_tensorop_s1688dgrad_"
               "optimized_tf32_128x128_16x4_nhwc_unity_stride_align4>(cutlass_tensorop_s1688dgrad_optimized)",
               "gemm");
        addRow("v100 scudnn conv", K, "volta_scudnn_128x64_relu_interior_nn_v1", "gemm");
        addRow("a100 broadcast", K,
               "ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
               "comm_kernel");
        addRow("a100 memset", EventKind::GpuMemset, "Memset (Device)", "memset");
        addRow("a100 launch ex", EventKind::Runtime, "cudaLaunchKernelExC", "runtime_call");
        addRow("a100 gpu range", EventKind::GpuUserAnnotation, "nccl:all_reduce", "gpu_annotation");
        addRow("a100 reducer op", EventKind::CpuOp, "torch::distributed::reducer::mul_out", "cpu_op");
        // single-rank/rtx2080ti-linear
        addRow(
            "rtx softmax", K,
            "void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false, false>(float*, "
            "float const*, int, int, int, bool const*, int, bool)",
            "reduction");
        addRow("rtx sgemm", K, "volta_sgemm_128x64_nn", "gemm");
        // single-rank/a100-cuda-sync-multistream
        addRow("a100 stream wait", EventKind::CudaSync, "Stream Wait Event", "sync");
        addRow("a100 context sync", EventKind::CudaSync, "Context Sync", "sync");
        // samples/03-tp2-pp2 (H100 names of the generator: cuBLAS, flash attention, NCCL >= 2.19)
        addRow("sample flash fwd", K,
               "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<128, 128, 64, 4, "
               "false, false, cutlass::bfloat16_t, pytorch_flash::Flash_kernel_traits<128, 128, 64, 4, "
               "cutlass::bfloat16_t> >, false, false, false, false, true, true, false, false>(pytorch_flash::"
               "Flash_fwd_params)",
               "attention");
        addRow("sample gemm", K,
               "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nt_n_tilesize128x256x64_warpgroupsize2x1x1_execute_"
               "segment_k_"
               "off_kernel__5x_cublas",
               "gemm");
        addRow(
            "sample layer norm", K,
            "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, "
            "float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, "
            "c10::BFloat16*)",
            "reduction");
        addRow(
            "sample gelu", K,
            "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::"
            "TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::"
            "operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2> >(int, at::native::"
            "GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() "
            "const::{lambda()#2}::operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, "
            "2>)",
            "elementwise");
        addRow("sample nccl 2.19", K,
               "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "comm_kernel");
        addRow("sample c10d", EventKind::CpuOp, "c10d::allreduce_", "comm_op");
        addRow("sample sdpa op", EventKind::CpuOp, "aten::_scaled_dot_product_flash_attention", "cpu_op");
        addRow("sample event record", EventKind::Runtime, "cudaEventRecord", "runtime_call");
        addRow("sample record_param_comms", EventKind::CpuOp, "record_param_comms", "comm_op");
    }
    void realNames() {
        QFETCH(int, kind);
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, cls);
        const EventClass c = eventClassOf(static_cast<EventKind>(kind), name.toStdString());
        QCOMPARE(QByteArray(eventClassName(c).data(), qsizetype(eventClassName(c).size())), cls);
    }

    // Every class has its own name, and the derived groupings map each class one way.
    void namesAreDistinct() {
        QSet<QByteArray> seen;
        for (int i = 0; i < kEventClassCount; ++i) {
            const auto n = eventClassName(static_cast<EventClass>(i));
            QVERIFY(!seen.contains(QByteArray(n.data(), qsizetype(n.size()))));
            seen.insert(QByteArray(n.data(), qsizetype(n.size())));
        }
        QCOMPARE(seen.size(), 20);
    }

    void derivedGroups() {
        // The knob groups of compute.speedup.<class>: "memory" holds data-movement kernels and the
        // GPU copies and sets; communication kernels and host events are in no compute group.
        QCOMPARE(kernelClassOf(EventClass::Gemm), KernelClass::Gemm);
        QCOMPARE(kernelClassOf(EventClass::DataMovement), KernelClass::Memory);
        QCOMPARE(kernelClassOf(EventClass::EmbeddingLookup), KernelClass::Memory);
        QCOMPARE(kernelClassOf(EventClass::Memcpy), KernelClass::Memory);
        QCOMPARE(kernelClassOf(EventClass::Memset), KernelClass::Memory);
        QCOMPARE(kernelClassOf(EventClass::OtherKernel), KernelClass::Other);
        // The HTA breakdown: compute kernels, communication kernels, memcpy / memset.
        QCOMPARE(opClassOf(EventClass::Attention), OpClass::Compute);
        QCOMPARE(opClassOf(EventClass::DataMovement), OpClass::Compute);
        QCOMPARE(opClassOf(EventClass::EmbeddingLookup), OpClass::Compute);
        QCOMPARE(opClassOf(EventClass::CommKernel), OpClass::Communication);
        QCOMPARE(opClassOf(EventClass::Memcpy), OpClass::MemcpyMemset);
        QCOMPARE(opClassOf(EventClass::Memset), OpClass::MemcpyMemset);
    }

    // A replaced pattern moves a kernel between compute classes, never out of communication.
    void replacedPattern() {
        EventClassifier c;
        c.setPattern(EventClass::Gemm, "my_custom_kernel");
        QCOMPARE(c.classify(EventKind::Kernel, "my_custom_kernel"), EventClass::Gemm);
        QCOMPARE(c.classify(EventKind::Kernel, "volta_sgemm_128x64_nn"), EventClass::OtherKernel);
        QCOMPARE(c.classify(EventKind::Kernel, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, "
                                               "unsigned long, ncclWork*)"),
                 EventClass::CommKernel);
    }
};

QTEST_GUILESS_MAIN(TestEventClass)
#include "test_EventClass.moc"
